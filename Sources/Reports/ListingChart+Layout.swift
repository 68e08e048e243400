import Simulation

extension ListingChart {
    /// Where things go on the chart: a fixed 960-pixel-wide canvas, a 300-pixel-high plot, one lane per device below it.
    struct Layout {
        /// The left edge of the time axis.
        let start: SimInstant
        /// The right edge of the time axis.
        let end: SimInstant
        /// Heating and cooling lanes below the plot.
        let laneCount: Int
        /// The bottom of the °C axis.
        let lowC: Double
        /// The top of the °C axis.
        let highC: Double
        /// The °C between gridlines.
        let stepC: Double

        /// Canvas width, px.
        let width = 960
        /// Plot area edges, px.
        let plotLeft = 64.0, plotRight = 940.0, plotTop = 60.0, plotBottom = 360.0

        /// Canvas height, px: the plot, the date labels and the device lanes.
        var height: Int { Int(plotBottom) + 30 + laneCount * 18 + 10 }

        /// Lays out a chart whose temperatures are `temperatures` (°C, finite; empty gives 0–20 °C).
        init(start: SimInstant, end: SimInstant, laneCount: Int, temperatures: [Double]) {
            self.start = start
            self.end = end
            self.laneCount = laneCount
            let low = (temperatures.min() ?? 0) - 0.5, high = (temperatures.max() ?? 20) + 0.5
            // The smallest of 0.5, 1, 2, 5, 10, 20, 50, … giving at most 8 gridline gaps.
            var step = 0.5, multipliers = [2.0, 2.0, 2.5], next = 0
            while ((high / step).rounded(.up) - (low / step).rounded(.down)) > 8 {
                step *= multipliers[next % 3]
                next += 1
            }
            stepC = step
            lowC = (low / step).rounded(.down) * step
            highC = (high / step).rounded(.up) * step
        }

        /// The x coordinate of `instant`, px.
        func x(_ instant: SimInstant) -> Double {
            let span = Double((end - start).milliseconds)
            return plotLeft + Double((instant - start).milliseconds) / span * (plotRight - plotLeft)
        }

        /// The y coordinate of `celsius`, px.
        func y(_ celsius: Double) -> Double {
            plotBottom - (celsius - lowC) / (highC - lowC) * (plotBottom - plotTop)
        }

        /// The top of device lane `index`, px (lanes are 12 px high, 18 px apart).
        func laneTop(_ index: Int) -> Double { plotBottom + 28 + Double(index) * 18 }
    }
}

extension ListingChart {
    /// Where `instant` falls on a chart over `[start, end]` (px from the chart's left edge), and the plot's
    /// top and bottom (px): for marks a report page draws over the chart (expectation moments).
    public static func plotX(_ instant: SimInstant, start: SimInstant, end: SimInstant) -> Double {
        Layout(start: start, end: end, laneCount: 0, temperatures: []).x(instant)
    }

    /// The top and bottom of the plot area, px.
    public static let plotTop = 60.0, plotBottom = 360.0
}

extension ListingChart {
    /// Where a temperature (°C) falls on the chart ``svg(listing:trace:stays:calendar:)`` draws from `trace`
    /// (px from the top; outside the plot when outside its scale): for lines a report page draws over the
    /// chart. The scale is worked out once (it reads every point of the trace) and applied to each temperature.
    public static func plotYScale(trace: Trace) -> (Double) -> Double {
        let layout = Layout(start: trace.layout.start, end: trace.layout.end, laneCount: 0,
                            temperatures: trace.indoor.points.map(\.1) + trace.outdoor.points.map(\.1))
        return { layout.y($0) }
    }
}
