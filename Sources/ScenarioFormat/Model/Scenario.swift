import Reports
import SmartHome
import Rules
import Simulation
import Weather

/// A decoded and validated scenario file (SCENARIO-FORMAT.md, version 1): the world, the timeline
/// and the expectations, with every time already resolved in the scenario's time zone.
public struct Scenario: Sendable {
    /// The file it came from (as given on the command line), for messages.
    public var file: String
    /// Always 1 for now.
    public var version: Int
    public var name: String
    public var description: String?
    /// Seeds every random stream (weather noise); default 0.
    public var seed: UInt64
    /// The scenario's time zone.
    public var calendar: LocalCalendar
    public var start: SimInstant
    public var end: SimInstant
    /// Weather per city, sorted by city name.
    public var weather: [CityWeatherSpec]
    /// Cities outside the built-in gazetteer described under `cities`, by name (see ``feedCity(named:)``).
    public var cities: [String: CitySpec]
    public var users: [UserSpec]
    public var listings: [ListingSpec]
    public var automations: AutomationsSpec
    /// Steps sorted by time (stable: same instant keeps file order).
    public var timeline: [Step]
    public var expectations: [Expectation]
    /// What electricity costs (`tariff`), for `kpi.csv`; `nil`: no cost column.
    public var tariff: Tariff? = nil
    /// Grid emission factor, kg CO₂ per kWh (`co2KgPerKWh`); `nil`: no emissions column.
    public var co2KgPerKWh: Double? = nil
    /// Virtual Items (`items`): no device behind them.
    public var items: [VirtualItemSpec] = []
    /// The `.items` files named by `itemFiles`, resolved against the scenario's directory (their Items are
    /// in ``items``).
    public var itemFiles: [String] = []
    /// `itemBindings`: the user's Items bound to the twin's devices.
    public var itemBindings: [ItemBindingSpec] = []
    /// `persistence`: which Items the twin's persistence service records (`nil`: none).
    public var persistence: PersistenceSpec? = nil
    /// The rule files named by `rules`, resolved against the scenario's directory.
    public var ruleFiles: [String] = []
    /// The rules those files hold, in file order.
    public var rules: [Rule] = []
    /// `responses`: the scripted answers to the rules' `executeCommandLine` and HTTP actions.
    public var responses: [ScriptedResponse] = []
    /// `transformFiles`: the MAP and SCALE files the rules' `transform` reads, resolved against the
    /// scenario's directory, and what they hold (named by file name).
    public var transformFiles: [String] = []
    public var transforms: [TransformFile] = []
    /// `ephemeris.bankHolidays`: the days Ephemeris's `isBankHoliday` answers true for, with their names;
    /// `nil` when the scenario lists none (the twin has no holiday calendar of its own).
    public var bankHolidays: [CivilDate: String]? = nil
    /// What the files declare that openHAB loads with a warning (an Item declared in two `.items` files, a
    /// state pattern's unknown unit), located; `validate` and `run` print them. The scenario runs as openHAB would.
    public var notices: [String] = []
    /// What openHAB refuses with a warning and loads the rest without (an `openhabConf` rules file with a
    /// syntax error or openHAB 2's Joda-Time), located; `validate` and `run` print them, `--strict` refuses them.
    public var warnings: [String] = []
    /// `openhabConf`: the `$OPENHAB_CONF` directory, resolved against the scenario's directory (`nil`: none).
    public var openhabConf: String? = nil
    /// The `.things` files loaded (`openhabConf`'s `things/`), and the Things and Bridges they declare.
    public var thingFiles: [String] = []
    public var things: [ThingDefinition] = []
    /// The `.persist` files loaded (`openhabConf`'s `persistence/`), one persistence service each.
    public var persistFiles: [String] = []
    public var persistenceServices: [PersistenceFileDefinition] = []
    /// What loading `openhabConf` left out and why (files openHAB's folder watcher does not take, folders the
    /// twin does not read), one line each: `--log` prints them.
    public var loadLog: [String] = []
}

/// One city's weather source, as written under `weather`.
public struct CityWeatherSpec: Sendable {
    public var city: String
    public var source: WeatherSource
}

/// A person of the scenario.
public struct UserSpec: Sendable {
    public var id: String
    public var name: String
    public var email: String?
}
