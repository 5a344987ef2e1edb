// class: P.M
// An if-equation whose branches determine the same unknown: one
// conditional assignment, the relation an event.
package P
  model M
    input Real u;
    output Real y;
  equation
    if u > 0 then
      y = u;
    else
      y = -u;
    end if;
  end M;
end P;
