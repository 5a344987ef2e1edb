package P
  model Inner
    Real x;
  end Other;
  model Next
  end Next;
end P;
