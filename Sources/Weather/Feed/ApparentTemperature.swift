import Foundation

/// The "feels like" temperature the feed reports.
///
/// Below 10 °C with wind above 4.8 km/h: the North American / UK wind-chill index
/// (`13.12 + 0.6215 T − 11.37 v^0.16 + 0.3965 T v^0.16`, v in km/h). From 27 °C with at
/// least 40 % humidity: the US National Weather Service heat index (Rothfusz regression).
/// Otherwise the air temperature itself.
enum ApparentTemperature {
    /// The apparent temperature, °C.
    static func celsius(tempC: Double, humidity: Double, windMps: Double) -> Double {
        let windKmh = windMps * 3.6
        if tempC <= 10, windKmh > 4.8 {
            let v = pow(windKmh, 0.16)
            return 13.12 + 0.6215 * tempC - 11.37 * v + 0.3965 * tempC * v
        }
        if tempC >= 27, humidity >= 40 {
            let t = tempC * 9 / 5 + 32, r = humidity
            let f = -42.379 + 2.049_015_23 * t + 10.143_331_27 * r - 0.224_755_41 * t * r - 0.006_837_83 * t * t
                - 0.054_817_17 * r * r + 0.001_228_74 * t * t * r + 0.000_852_82 * t * r * r - 0.000_001_99 * t * t * r * r
            return (f - 32) * 5 / 9
        }
        return tempC
    }
}
