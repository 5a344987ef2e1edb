package P
  connector Fluid
    input Real p;
    flow Real m_flow;
    stream Real h; // <- MC101
  end Fluid;
end P;
