package P
  connector Fluid
    input Real p;
    flow Real m_flow;
  end Fluid;
end P;
