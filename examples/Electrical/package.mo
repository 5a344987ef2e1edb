// Analog circuits under the strict modelling methodology. A Modelica pin
// pairs a potential with a current and leaves the direction to the
// connection set; here every pin says which side determines what: a PinOut's
// owner determines the potential of its node and learns the current, a
// PinIn's owner receives the potential and determines the current it draws.
// At every node exactly one element determines the potential: a ground, a
// source, a capacitor (its voltage is a state), an element in series with an
// inductor, or a Basic.Node (a declared LinearResponse that chooses the
// potential so that the currents sum to zero). docs/electrical.md gives the
// recipe, element by element.
//
// The sub-packages live in their own files and load in package.order order;
// each depends only on the ones before it. The EMF drives the rotational
// flanges of Planar.Rotational, and the examples use Signals' sources and
// filters, so Signals and Planar load before this library.
encapsulated package Electrical "Analog circuits with assumed causality"
  import B = Base;
  import SI = Base.Units;
end Electrical;
