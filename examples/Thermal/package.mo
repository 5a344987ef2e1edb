// Lumped heat transfer under assumed causality. The sub-packages live in
// their own files and load in package.order order: Interfaces, Components,
// Examples, each depending only on the ones before it.
encapsulated package Thermal "Lumped heat transfer with assumed causality"
  import B = Base;
  import SI = Base.Units;
end Thermal;
