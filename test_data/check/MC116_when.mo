package P
  block B
    input Real u;
    output Real y;
  equation
    y = pre(u); // <- MC116
    when u > 1 then // <- MC116
    end when;
  end B;
end P;
