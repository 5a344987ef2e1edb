package P
  function factorial
    input Real n;
    output Real y;
  algorithm
    if n <= 1 then
      y := 1;
    else
      y := n*factorial(n - 1); // <- MC070
    end if;
  end factorial;
end P;
