import Foundation
import ScenarioFormat
import Scenarios
import Testing

extension JavaScriptSuite {
    /// openhab-js's public surface, member by member: each runs in the twin or is a located `rules.jsUnsupported`
    /// naming it (and Docs/JAVASCRIPT.md names it), never `undefined`; openHAB's state types through `Java.type`;
    /// the RuleManager service on the twin's rule engine.
    @Suite struct JavaScriptAPICompletenessTests {
        static let items = """
        [ { "name": "Temp", "type": "Number:Temperature", "state": "20.5 °C" }, { "name": "Lamp", "type": "Switch", "state": "OFF" },
          { "name": "Level", "type": "Dimmer", "state": "40" }, { "name": "Count", "type": "Number", "state": "7" },
          { "name": "Missing", "type": "String", "state": "" }, { "name": "Refused", "type": "String", "state": "" },
          { "name": "Out", "type": "String", "state": "-" }, { "name": "Out2", "type": "String", "state": "-" } ]
        """

        /// openhab-js v5.21.0's public members (read from its `src/`), namespace by namespace. Kept here, written
        /// out, so that a member the twin loses is a failing test.
        static let walker = """
        const { items, rules, triggers, time, actions, cache, utils, osgi, things, environment, log, Quantity } = require('openhab');
        const openhab = require('openhab');
        const missing = [], refused = [];
        function look (label, owner, names) {
          for (const n of names) {
            let v;
            try { v = owner[n]; } catch (e) {
              if (e.name === 'rules.jsUnsupported' && e.message.includes(n)) refused.push(`${label}.${n}`);
              else missing.push(`${label}.${n} threw ${e.name}: ${e.message}`);
              continue;
            }
            if (v === undefined) missing.push(`${label}.${n}`);
          }
        }
        /** Members of a class's prototype (its getters are not run on the prototype itself). */
        function lookIn (label, proto, names) { for (const n of names) if (!(n in proto)) missing.push(`${label}.${n}`); }
        /** Members called with no arguments that must be refused by name. */
        function refusedWhenCalled (label, owner, names) {
          for (const n of names) {
            try { owner[n](); missing.push(`${label}.${n}() ran`); } catch (e) {
              if (e.name === 'rules.jsUnsupported' && e.message.includes(n)) refused.push(`${label}.${n}`);
              else missing.push(`${label}.${n}() threw ${e.name}: ${e.message}`);
            }
          }
        }
        rules.JSRule({
          name: 'Walk',
          triggers: [triggers.ItemCommandTrigger('Lamp')],
          execute: () => {
            look('openhab', openhab, ['items', 'things', 'rules', 'triggers', 'actions', 'cache', 'time', 'utils', 'osgi', 'log', 'Quantity', 'environment']);
            look('items', items, ['getItem', 'getItems', 'getItemsByTag', 'existsItem', 'addItem', 'replaceItem', 'removeItem', 'safeItemName', 'metadata',
              'itemChannelLink', 'RiemannType', 'TimeSeries', 'Item', 'ItemPersistence', 'ItemSemantics', 'PersistedItem', 'PersistedState']);
            look('items.metadata', items.metadata, ['getMetadata', 'addMetadata', 'replaceMetadata', 'removeMetadata', 'itemChannelLink']);
            const item = items.getItem('Temp');
            look('Item', item, ['name', 'label', 'type', 'groupType', 'category', 'tags', 'groupNames', 'members', 'descendents', 'state', 'numericState',
              'quantityState', 'boolState', 'rawState', 'previousState', 'previousNumericState', 'previousQuantityState', 'previousRawState',
              'lastStateUpdateTimestamp', 'lastStateUpdateInstant', 'lastStateChangeTimestamp', 'lastStateChangeInstant', 'isInitialized',
              'isUninitialized', 'rawItem', 'semantics', 'persistence', 'history', 'getMetadata', 'replaceMetadata', 'removeMetadata', 'addGroups',
              'removeGroups', 'addTags', 'removeTags', 'sendCommand', 'sendCommandIfDifferent', 'sendIncreaseCommand', 'sendDecreaseCommand',
              'sendToggleCommand', 'postToggleUpdate', 'getToggleState', 'postUpdate', 'toString']);
            const p = item.persistence;
            const ranges = ['average', 'median', 'sum', 'delta', 'deviation', 'variance', 'riemannSum', 'maximum', 'minimum', 'evolutionRate', 'count',
              'countStateChanges', 'changed', 'updated', 'getAllStates', 'removeAllStates'];
            look('ItemPersistence', p, ['persistedState', 'previousState', 'nextState', 'lastUpdate', 'nextUpdate', 'lastChange', 'nextChange', 'persist',
              ...ranges.flatMap((r) => [r + 'Since', r + 'Until', r + 'Between'])]);
            lookIn('PersistedState', items.PersistedState.prototype, ['numericState', 'quantityState', 'rawState', 'toString']);
            lookIn('PersistedItem', items.PersistedItem.prototype, ['timestamp', 'instant']);
            look('rules', rules, ['JSRule', 'SwitchableJSRule', 'isEnabled', 'removeRule', 'runAsync', 'runRule', 'setEnabled', 'when']);
            look('triggers', triggers, ['ChannelEventTrigger', 'ItemStateChangeTrigger', 'ItemStateUpdateTrigger', 'ItemCommandTrigger',
              'GroupStateChangeTrigger', 'GroupStateUpdateTrigger', 'GroupCommandTrigger', 'ThingStatusUpdateTrigger', 'ThingStatusChangeTrigger',
              'SystemStartlevelTrigger', 'GenericCronTrigger', 'GenericEventTrigger', 'TimeOfDayTrigger', 'DateTimeTrigger', 'PWMTrigger', 'PIDTrigger']);
            look('time', time, ['toZDT', 'toInstant', 'javaZDTToJsZDT', 'javaInstantToJsInstant', 'ZonedDateTime', 'LocalTime', 'LocalDate', 'LocalDateTime',
              'Instant', 'Duration', 'Period', 'ChronoUnit', 'ChronoField', 'DateTimeFormatter', 'ZoneId', 'DayOfWeek', 'Month', 'Clock', 'MonthDay',
              'OffsetDateTime', 'OffsetTime', 'Year', 'YearMonth', 'ZoneOffset', 'TemporalAdjusters', 'DateTimeFormatterBuilder']);
            const now = time.ZonedDateTime.now();
            look('ZonedDateTime', now, ['toToday', 'isBeforeTime', 'isAfterTime', 'isBeforeDate', 'isAfterDate', 'isBeforeDateTime', 'isAfterDateTime',
              'isBetweenTimes', 'isBetweenDates', 'isBetweenDateTimes', 'isClose', 'getMillisFromNow', 'toOpenHabString']);
            look('actions', actions, ['Audio', 'BusEvent', 'CoreUtil', 'Ephemeris', 'Exec', 'HTTP', 'Log', 'Ping', 'ScriptExecution', 'Semantics', 'Things',
              'Transformation', 'Voice', 'NotificationAction', 'notificationBuilder', 'get', 'thingActions']);
            look('actions.ScriptExecution', actions.ScriptExecution, ['createTimer', 'callScript']);
            const timer = actions.ScriptExecution.createTimer(now.plusHours(1), () => {});
            look('Timer', timer, ['cancel', 'reschedule', 'isActive', 'isRunning', 'hasTerminated', 'isCancelled', 'getExecutionTime']);
            timer.cancel();
            look('notificationBuilder', actions.notificationBuilder('x'), ['addUserId', 'logOnly', 'hide', 'withIcon', 'withTag', 'withTitle',
              'withReferenceId', 'withOnClickAction', 'withMediaAttachmentUrl', 'addActionButton', 'send']);
            look('cache', cache, ['private', 'shared']);
            look('cache.private', cache.private, ['get', 'put', 'remove', 'exists']);
            look('utils', utils, ['dumpObject', 'randomUUID', 'javaListToJsArray', 'javaSetToJsArray', 'javaSetToJsSet', 'javaMapToJsMap', 'javaMapToJsObj',
              'jsArrayToJavaList', 'jsArrayToJavaSet', 'jsSetToJavaSet', 'javaify', 'jsify', 'OPENHAB_JS_VERSION']);
            look('osgi', osgi, ['getService', 'findServices', 'registerService', 'registerPermanentService', 'unregisterService']);
            look('things', things, ['getThing', 'getThings', 'Thing']);
            lookIn('Thing', things.Thing.prototype, ['uid', 'label', 'location', 'status', 'statusInfo', 'thingTypeUID', 'bridgeUID', 'isEnabled', 'setEnabled',
              'setLabel', 'setLocation', 'setProperty', 'toString']);
            look('environment', environment, ['isScriptFile', 'useProviderRegistries', 'OPENHAB_JS_VERSION', 'GRAALJS_VERSION', 'OPENHAB_VERSION']);
            look('Logger', log('walk'), ['error', 'warn', 'info', 'debug', 'trace', 'atLevel', 'name']);
            look('Quantity', Quantity('1 m'), ['dimension', 'unit', 'symbol', 'float', 'int', 'add', 'subtract', 'multiply', 'divide', 'toUnit', 'equal',
              'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual', 'toString']);
            refusedWhenCalled('items', items, ['addItem', 'replaceItem', 'removeItem']);
            refusedWhenCalled('items.metadata', items.metadata, ['addMetadata', 'replaceMetadata', 'removeMetadata']);
            refusedWhenCalled('Item', item, ['replaceMetadata', 'removeMetadata', 'addGroups', 'removeGroups', 'addTags', 'removeTags']);
            refusedWhenCalled('rules', rules, ['removeRule', 'runAsync']);
            refusedWhenCalled('triggers', triggers, ['PWMTrigger', 'PIDTrigger']);
            refusedWhenCalled('osgi', osgi, ['registerService', 'registerPermanentService', 'unregisterService']);
            refusedWhenCalled('actions.ScriptExecution', actions.ScriptExecution, ['callScript']);
            refusedWhenCalled('actions.Ping', actions.Ping, ['checkVitality']);
            refusedWhenCalled('cache', cache, ['get', 'put', 'remove', 'exists']);
            items.Missing.postUpdate(missing.length === 0 ? 'none' : missing.join('; '));
            console.info('refused: ' + refused.join(' '));
          },
        });
        """

        @Test func everyReferenceMemberRunsOrIsADocumentedRefusal() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/walk.js"] = Self.walker
            s.timeline = #"{ "at": "2026-01-09T08:00", "command": { "item": "Lamp", "value": "ON" } }"#
            s.expect = #"{ "at": "2026-01-09T08:01", "item": "Missing", "state": "none" }, { "rule": "Walk", "runs": 1 }"#
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            let line = try #require(result.log.first { $0.contains("refused: ") }, "\(result.log)")
            let refused = line.components(separatedBy: "refused: ")[1].split(separator: " ").map(String.init)
            #expect(refused.count > 40, "\(refused)")
            // Each refusal is named in the docs' table of refused members (by one of its names after the namespace;
            // a persistence query's Until/Between variants by its Since one).
            let docs = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Docs/JAVASCRIPT.md"), encoding: .utf8)
            let undocumented = refused.filter { member in
                member.split(separator: ".").dropFirst().map(String.init).allSatisfy { part in
                    let name = part.replacingOccurrences(of: "(Until|Between)$", with: "Since", options: .regularExpression)
                    return !docs.contains("`\(name)") && !docs.contains(name + "`")
                }
            }
            #expect(undocumented.isEmpty, "refused but not in Docs/JAVASCRIPT.md: \(undocumented)")
        }

        /// On the time classes, a js-joda member the twin lacks is refused by name, while a name that js-joda's class does not
        /// have either (also one another class has) is `undefined`, as on GraalJS: real code reads `lastUpdate().state || '-'`.
        @Test func aNameJsJodaLacksIsUndefinedAsOnGraalJS() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/names.js"] = """
            rules.JSRule({ name: 'Names', triggers: [triggers.TimeOfDayTrigger('09:00')], execute: () => {
              const now = time.ZonedDateTime.now();
              let refused = 'no';
              try { now.withFixedOffsetZone(); } catch (e) { refused = e.name; }
              items.Out.postUpdate(`${now.state || '-'} ${typeof now.fooBar} ${refused} ${typeof now.toLocalTime().withFixedOffsetZone}`);
            } });
            """
            s.expect = #"{ "at": "2026-01-09T09:01", "item": "Out", "state": "- undefined rules.jsUnsupported undefined" }"#
            let result = try await s.run()
            #expect(result.passed, "\(result.failures) \(result.log.filter { $0.contains("error") })")
        }

        /// A refusal is located at the script's line, named, and the run goes on.
        @Test func aRefusedMemberIsLocatedAtItsLine() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/refuse.js"] = """
            const { rules, triggers, items, time } = require('openhab');
            rules.JSRule({ name: 'Year', triggers: [triggers.ItemCommandTrigger('Lamp')], execute: () => {
              items.Out.postUpdate('before');
              const y = time.Year.now();
            } });
            """
            s.timeline = #"{ "at": "2026-01-09T08:00", "command": { "item": "Lamp", "value": "ON" } }"#
            s.expect = #"{ "at": "2026-01-09T08:01", "item": "Out", "state": "before" }"#
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.contains("rules.jsUnsupported") && $0.contains("time.Year") && $0.contains("automation/js/refuse.js:4") },
                    "\(result.log)")
        }

        /// `Java.type`'s openHAB state types construct objects that print, compare and convert as openHAB's, and
        /// that sendCommand/postUpdate send as openHAB's text; `rawState` is the Item's State object.
        @Test func javaStateTypesBehaveAsOpenHABs() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/types.js"] = """
            const { rules, triggers, items } = require('openhab');
            const DecimalType = Java.type('org.openhab.core.library.types.DecimalType');
            const PercentType = Java.type('org.openhab.core.library.types.PercentType');
            const QuantityType = Java.type('org.openhab.core.library.types.QuantityType');
            const OnOffType = Java.type('org.openhab.core.library.types.OnOffType');
            const StringType = Java.type('org.openhab.core.library.types.StringType');
            const UnDefType = Java.type('org.openhab.core.types.UnDefType');
            const BigDecimal = Java.type('java.math.BigDecimal');
            const RoundingMode = Java.type('java.math.RoundingMode');
            rules.JSRule({ name: 'Types', triggers: [triggers.ItemCommandTrigger('Lamp')], execute: () => {
              const five = new DecimalType(5);
              items.Count.sendCommand(five.toBigDecimal().add(new BigDecimal('0.25')).toString());
              items.Level.postUpdate(new PercentType(75));
              items.Temp.postUpdate(new QuantityType('21.5 °C'));
              const raw = items.Temp.rawState;
              const out = [String(five), five.intValue(), five.doubleValue(), new DecimalType('21.50'), five.equals(new DecimalType('5.0')),
                five.compareTo(new DecimalType(7)), new DecimalType(0).as(OnOffType), new DecimalType(0.5).as(PercentType), new DecimalType(3.14159).format('%.2f'),
                raw instanceof QuantityType, raw.toUnit('K'), raw.add(new QuantityType('1.5 °C')), items.Lamp.rawState === OnOffType.ON,
                items.Count.rawState.floatValue(), new StringType('x').equals(new StringType('x')), UnDefType.NULL,
                new BigDecimal('2.345').setScale(2, RoundingMode.HALF_UP)];
              items.Out.postUpdate(out.join(' '));
              let error = '';
              try { new DecimalType('abc'); } catch (e) { error = e.message; }
              items.Out2.postUpdate(error);
            } });
            """
            s.timeline = #"{ "at": "2026-01-09T08:00", "command": { "item": "Lamp", "value": "ON" } }"#
            s.expect = """
            { "at": "2026-01-09T08:01", "item": "Out", "state": "5 5 5 21.50 true -1 OFF 50.0 3.14 true 293.65 K 22.0 °C true 7 true NULL 2.35" },
            { "at": "2026-01-09T08:01", "item": "Out2", "state": "NumberFormatException: Invalid BigDecimal value: abc" },
            { "at": "2026-01-09T08:01", "item": "Count", "state": "5.25" },
            { "at": "2026-01-09T08:01", "item": "Level", "state": "75" },
            { "at": "2026-01-09T08:01", "item": "Temp", "state": "21.5 °C" }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
        }

        /// A persisted state's `rawState` is read as its Item's type reads it.
        @Test func persistedStatesHaveOpenHABsStateObjects() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.members = #""persistence": { "items": [ "Temp" ], "strategy": "everyChange" },"#
            s.files["automation/js/persisted.js"] = """
            const QuantityType = Java.type('org.openhab.core.library.types.QuantityType');
            rules.JSRule({ name: 'Persisted', triggers: [triggers.TimeOfDayTrigger('10:00')], execute: () => {
              const max = items.Temp.persistence.maximumSince(time.toZDT('PT-2H'));
              const previous = items.Temp.persistence.previousState(true);
              items.Out.postUpdate([max.rawState instanceof QuantityType, max.rawState.toUnit('K'), previous.rawState.add(previous.rawState)].join(' '));
            } });
            """
            s.timeline = """
            { "at": "2026-01-09T08:30", "update": { "item": "Temp", "state": "22 °C" } },
            { "at": "2026-01-09T09:00", "update": { "item": "Temp", "state": "21 °C" } }
            """
            s.expect = #"{ "at": "2026-01-09T10:01", "item": "Out", "state": "true 295.15 K 44 °C" }"#
            let result = try await s.run()
            #expect(result.passed, "\(result.failures) \(result.log.filter { $0.contains("error") })")
        }

        /// `getAllStatesSince/Until/Between` give the stored states as `PersistedItem`s, oldest first; `null` where openHAB
        /// refuses the interval (an open begin with an end before now).
        @Test func getAllStatesGivesPersistedItemsOldestFirst() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.members = #""persistence": { "items": [ "Temp" ], "strategy": "everyChange" },"#
            s.files["automation/js/all.js"] = """
            rules.JSRule({ name: 'All', triggers: [triggers.TimeOfDayTrigger('10:00')], execute: () => {
              const all = items.Temp.persistence.getAllStatesSince(time.toZDT('PT-2H'));
              const between = items.Temp.history.getAllStatesBetween(time.toZDT('08:45'), time.toZDT('09:30'));
              items.Out.postUpdate([all.map((p) => `${p.state}@${p.timestamp.hour()}`).join(','), all[0].numericState, between.length,
                items.Temp.persistence.getAllStatesUntil(time.toZDT('PT-1H'))].join(' '));
            } });
            """
            s.timeline = """
            { "at": "2026-01-09T08:30", "update": { "item": "Temp", "state": "22 °C" } },
            { "at": "2026-01-09T09:00", "update": { "item": "Temp", "state": "21 °C" } }
            """
            s.expect = #"{ "at": "2026-01-09T10:01", "item": "Out", "state": "22 °C@8,21 °C@9 22 1 " }"#
            let result = try await s.run()
            #expect(result.passed, "\(result.failures) \(result.log.filter { $0.contains("error") })")
        }

        /// `osgi.getService('org.openhab.core.automation.RuleManager')` (or its short name) runs rules, enables them and
        /// reports their status through the twin's engine (a change the run made is seen later in the same run, as openHAB
        /// applies it at once); an unknown UID and a rule that runs itself are logged, located errors; another service is
        /// got, and using it is refused by name.
        @Test func theRuleManagerServiceRunsOnTheTwinsEngine() async throws {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/manager.js"] = """
            const { rules, triggers, items, osgi } = require('openhab');
            const RuleManager = osgi.getService('org.openhab.core.automation.RuleManager');
            const ruleRegistry = osgi.getService('org.openhab.core.automation.RuleRegistry');
            rules.JSRule({ name: 'Target', id: 'target', execute: (event) => { items.Out2.postUpdate(`target ran ${JSON.stringify(event.raw)}`); } });
            rules.JSRule({ name: 'Other', id: 'other', triggers: [triggers.ItemCommandTrigger('Count')], execute: () => {} });
            rules.JSRule({ name: 'Again', id: 'again', triggers: [triggers.ItemCommandTrigger('Level')], execute: () => { osgi.getService('RuleManager').runNow('again'); } });
            rules.JSRule({ name: 'Manager', triggers: [triggers.ItemCommandTrigger('Lamp')], execute: () => {
              RuleManager.runNow('target', true, { why: 'asked' });
              RuleManager.setEnabled('other', false);
              RuleManager.runNow('nope');
              let refusal = '';
              try { ruleRegistry.get('target'); } catch (e) { refusal = e.name; }
              items.Out.postUpdate([RuleManager.isEnabled('other'), String(RuleManager.isEnabled('nope')), RuleManager.getStatus('target'),
                RuleManager.getStatus('Manager-manager-4'), RuleManager.getStatusInfo('target'), RuleManager.getStatusInfo('other'), refusal].join(' '));
            } });
            """
            s.timeline = """
            { "at": "2026-01-09T08:00", "command": { "item": "Lamp", "value": "ON" } },
            { "at": "2026-01-09T09:00", "command": { "item": "Count", "value": "1" } },
            { "at": "2026-01-09T10:00", "command": { "item": "Level", "value": "10" } }
            """
            s.expect = """
            { "at": "2026-01-09T08:01", "item": "Out", "state": "false null IDLE RUNNING IDLE UNINITIALIZED (DISABLED) rules.jsUnsupported" },
            { "at": "2026-01-09T08:01", "item": "Out2", "state": "target ran {\\"why\\":\\"asked\\"}" },
            { "rule": "Target", "runs": 1 }, { "rule": "Other", "runs": 0 }
            """
            let result = try await s.run()
            #expect(result.passed, "\(result.failures)")
            #expect(result.log.contains { $0.contains("rules.unknownRule") && $0.contains("nope") }, "\(result.log)")
            #expect(result.log.contains { $0.contains("nested deeper than") }, "\(result.log)")
        }

        /// A `require` that resolves to nothing names the line of the `require`.
        @Test func aRequireThatResolvesToNothingIsLocatedAtItsLine() {
            let s = JSScenario()
            s.items = Self.items
            s.files["automation/js/needs.js"] = """
            const { rules } = require('openhab');

            const tools = require('./not-there');
            """
            let problems = s.problems()
            #expect(problems.contains { $0.contains("automation/js/needs.js:3") && $0.contains("rules.jsRequire") && $0.contains("not-there") },
                    "\(problems)")
        }
    }
}
