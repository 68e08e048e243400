// Rule builder (openhab-js rules.when()): a guest flat's comfort rules written as chains, no JSRule at all.
// Guest_Present comes from the booking side; the host's Thermostat_Mode is echoed for the wall display.

// Welcome scene on arrival, off at night.
rules.when().item('Guest_Present').changed().toOn()
  .then().sendOn().toItem('Welcome_Scene')
  .build('Welcome scene on arrival');

rules.when().timeOfDay('23:00')
  .then().sendOff().toItem('Welcome_Scene')
  .build('Scene off at night', 'Turn the welcome scene off at 23:00', ['Lights']);

// Mirror every command to the display Item ("sendIt" sends the received command).
rules.when().item('Thermostat_Mode').receivedCommand()
  .then().sendIt().toItem('Thermostat_Mode_Display')
  .build('Mirror thermostat mode');

// Comfort setpoint in the morning, only while a guest is in (an Item state condition).
rules.when().cron('0 0 6 * * ?')
  .if().stateOfItem('Guest_Present').is('ON')
  .then().copyAndSendState().fromItem('Comfort_Setpoint').toItem('Heating_Setpoint')
  .build('Morning comfort');

// A window of the group opens: heating off, unless it is off already (a function condition gets its
// arguments as one array, as in openhab-js).
rules.when().memberOf('gWindows').changed().to('OPEN')
  .if((args) => items.getItem('Thermostat_Mode').state !== 'OFF' && args.length === 1)
  .then().send('OFF').toItem('Thermostat_Mode')
  .build('Heating off while a window is open');

// A custom function and no name: openhab-js names the rule after its description.
rules.when().item('Bedroom_Window').changed()
  .then((event) => {
    const count = items.getItem('Window_Changes').numericState + 1;
    items.getItem('Window_Changes').postUpdate(count);
    console.info(`${event.itemName}: ${event.oldState} -> ${event.newState} (${count})`);
  })
  .build();
