// A room heated under a sampled on/off thermostat: the thermal components of
// examples/Thermal, a heater and a sensor that turn heat ports into signals,
// and the Hysteresis block of Signals.Discrete ticking once a second; the
// same room under a continuous-time relay (Signals.Logical.Hysteresis, state
// events) and on a timetable (Signals.Sources.BooleanPulse, time events),
// its heater switched by a Boolean connector. Load it
// after Base.mo, Signals.mo and Thermal. Components and Examples are separate
// packages so that each one depends only on packages declared before it.
encapsulated package Thermostat "A room heated under a sampled on/off thermostat"
  import SI = Base.Units;
  import S = Signals;
  import Th = Thermal;

  package Components "Heat ports to signals and back"

    model Heater "Heat source whose heat flow rate is P times a command signal"
      parameter SI.HeatFlowRate P = 1000 "Heat flow rate at command 1";
      S.Interfaces.RealInput command "Command: 0 off, 1 full power";
      Th.Interfaces.HeatPortIn port;
    equation
      // The heater gives P*command away, so the heat flowing into it is -P*command.
      port.Q_flow = -P*command;
    end Heater;

    model SwitchedHeater "Heat source of power P while its Boolean command is true"
      parameter SI.HeatFlowRate P = 1000 "Heat flow rate while on";
      S.Interfaces.BooleanInput on "The heater heats while this is true";
      Th.Interfaces.HeatPortIn port;
    equation
      // A Boolean that changes only at events: the heat flow jumps there.
      port.Q_flow = if on then -P else 0;
    end SwitchedHeater;

    model TemperatureSensor "Reads the temperature of a port without taking heat"
      Th.Interfaces.HeatPortIn port;
      S.Interfaces.RealOutput y "Temperature of the port, in K";
    equation
      port.Q_flow = 0;
      y = port.T;
    end TemperatureSensor;

  end Components;

  package Examples "Thermal systems under sampled control"

    model Room "A room heated by an on/off heater under a sampled thermostat with hysteresis"
      Th.Components.HeatCapacitor body(C = 500, T0 = 290) "The room's air and walls";
      Th.Components.ThermalConductor loss(G = 5) "Losses through the walls";
      Th.Components.FixedTemperature ambient(T = 280);
      Components.Heater heater(P = 150);
      Components.TemperatureSensor sensor;
      S.Sources.Constant setpoint(k = 293.15) "Set temperature, in K";
      S.Continuous.Feedback feedback "Set temperature minus room temperature";
      // At every tick (each second): on when the room is more than 0.5 K
      // below the set temperature, off when more than 0.5 K above it,
      // otherwise as at the tick before (off before the first tick).
      S.Discrete.Hysteresis thermostat(uLow = -0.5, uHigh = 0.5, Ts = 1);
    equation
      connect(body.port, heater.port);
      connect(body.port, loss.port_a);
      connect(loss.port_b, ambient.port);
      connect(body.port, sensor.port);
      connect(setpoint.y, feedback.u1);
      connect(sensor.y, feedback.u2);
      connect(feedback.y, thermostat.u);
      connect(thermostat.y, heater.command);
      annotation(experiment(StartTime = 0, StopTime = 301.5, Tolerance = 1e-06, Interval = 0.15));
    end Room;

    model RelayRoom "The room under a continuous-time relay: the heater switches where the error crosses 0.5 K either way (state events)"
      Th.Components.HeatCapacitor body(C = 500, T0 = 290) "The room's air and walls";
      Th.Components.ThermalConductor loss(G = 5) "Losses through the walls";
      Th.Components.FixedTemperature ambient(T = 280);
      Components.SwitchedHeater heater(P = 150);
      Components.TemperatureSensor sensor;
      S.Sources.Constant setpoint(k = 293.15) "Set temperature, in K";
      S.Continuous.Feedback feedback "Set temperature minus room temperature";
      // On when the room is more than 0.5 K below the set temperature, off
      // when more than 0.5 K above it, otherwise as it was: a Boolean that
      // crosses the connector from the relay to the heater.
      S.Logical.Hysteresis relay(uLow = -0.5, uHigh = 0.5);
    equation
      connect(body.port, heater.port);
      connect(body.port, loss.port_a);
      connect(loss.port_b, ambient.port);
      connect(body.port, sensor.port);
      connect(setpoint.y, feedback.u1);
      connect(sensor.y, feedback.u2);
      connect(feedback.y, relay.u);
      connect(relay.y, heater.on);
      annotation(experiment(StartTime = 0, StopTime = 400, Tolerance = 1e-08, Interval = 0.5));
    end RelayRoom;

    model ScheduledHeater "The room heated on a timetable: 40 s on in every 100 s from 10 s on (time events)"
      Th.Components.HeatCapacitor body(C = 500, T0 = 290) "The room's air and walls";
      Th.Components.ThermalConductor loss(G = 5) "Losses through the walls";
      Th.Components.FixedTemperature ambient(T = 280);
      Components.SwitchedHeater heater(P = 150);
      S.Sources.BooleanPulse timetable(width = 40, period = 100, startTime = 10);
    equation
      connect(body.port, heater.port);
      connect(body.port, loss.port_a);
      connect(loss.port_b, ambient.port);
      connect(timetable.y, heater.on);
      annotation(experiment(StartTime = 0, StopTime = 300, Tolerance = 1e-08, Interval = 0.5));
    end ScheduledHeater;

  end Examples;

end Thermostat;
