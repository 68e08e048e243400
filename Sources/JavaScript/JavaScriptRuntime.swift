import Foundation

/// Where the twin's JavaScript host runtime lives: `host.js` and `openhab.js`, shipped as a resource of this
/// target (`Runtime/`, copied as is) and read through `Bundle.module`.
public enum JavaScriptRuntime {
    /// The path of `host.js`, the script `node` runs.
    /// - Throws: ``JavaScriptError`` `rules.jsChild` when the resource bundle is missing (a broken install).
    public static func hostScript() throws(JavaScriptError) -> String {
        guard let url = Bundle.module.url(forResource: "host", withExtension: "js", subdirectory: "Runtime") else {
            throw JavaScriptError(.child, "the JavaScript runtime (Runtime/host.js in the RentalTwin_JavaScript resource bundle) is missing next to the executable.",
                                  hint: "rebuild with swift build; copy the .resources bundle along with rental-twin.")
        }
        return url.path
    }
}
