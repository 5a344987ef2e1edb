package P
  type Mode = enumeration(Off "No heating", Heat "Rated power", Boost);
  type Unspecified = enumeration(:);
  type One = enumeration(Only) "a type with one literal";
  model M
    parameter Mode mode = Mode.Heat;
  initial equation
    x = 1;
  equation
    if mode == Mode.Off and time < 1 then
      y = 0;
    elseif mode == Mode.Heat then
      y = 1;
    else
      y = 2;
    end if;
  end M;
end P;
