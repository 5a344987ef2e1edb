package P
  connector Bus
    input Real u;
  end Bus;
end P;
