import Rules
import SmartHome

/// The files of an `openhabConf` directory, as openHAB's folder watcher takes them, before they are read.
struct ConfListing {
    /// The directory as the scenario writes it, and resolved.
    var written: String
    var directory: String
    /// Paths as the scenario's file keys write them (relative to the scenario, or absolute), sorted.
    var itemFiles: [String] = []
    var thingFiles: [String] = []
    var ruleFiles: [String] = []
    var scriptFiles: [String] = []
    var persistFiles: [String] = []
    var transformFiles: [String] = []
    /// `automation/js/**/*.js` outside `node_modules`: JavaScript script files, loaded as a `.js` entry of
    /// `rules` is (the JavaScript Scripting add-on's script folder).
    var javaScriptFiles: [String] = []
    /// What was left out and why (`--log`).
    var log: [String] = []
    /// Where `openhabConf` is written, for problems of the directory itself.
    var node: JSONNode
    var path: String
    var issues: IssueCollector
}

/// What the `openhabConf` files hold beyond what the file keys decode.
struct ConfLoaded {
    var ruleFiles: [String] = []
    var rules: [Rule] = []
    var thingFiles: [String] = []
    var things: [ThingDefinition] = []
    var persistFiles: [String] = []
    var persistenceServices: [PersistenceFileDefinition] = []
}
