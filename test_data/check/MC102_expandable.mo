package P
  expandable connector Bus // <- MC102
    input Real u;
  end Bus;
end P;
