import Simulation

extension ListingChart {
    /// What a listing's chart draws, gathered as the run goes, so its size is set by the chart's
    /// pixels and not by the run's length: each temperature line at its resolution (the M4 rule:
    /// per pixel column the first, lowest, highest and last point) and each device's on-periods,
    /// those closer than half a pixel merged into one band.
    ///
    /// Feed it the listing's snapshots in time order (``add(_:)``) and its power transitions in
    /// time order (``add(_:)-(PowerTransition)``), interleaved in any way; ``ListingChart`` draws it.
    /// Transitions are held until the state at the chart's start is known — the last snapshot at
    /// or before it — and transitions before that snapshot are ignored, as a chart drawn from
    /// the whole run would.
    public struct Trace: Sendable {
        /// The chart's time axis (its temperature scale is not known until the end).
        let layout: Layout
        /// The temperature lines, thinned per pixel column as points arrive.
        var indoor: Line, outdoor: Line
        /// Heating and cooling devices (id and type), the type from the first snapshot naming one, in
        /// the order they came (a few: looked up by a scan, not a hash, at every snapshot).
        var laneTypes: [(id: String, type: String)] = []
        /// The first snapshot in range with a temperature that is not finite.
        var nonFiniteAt: SimInstant?
        /// The last snapshot at or before the start, while the first after it has not come yet.
        private var base: MeterSnapshot?
        /// Whether the state at the start is settled (a snapshot after the start has come).
        private var settled = false
        /// Transitions waiting for the state at the start.
        private var waiting: [PowerTransition] = []
        /// Per device that switched: on since when, and its bands so far (a few, in the order they switched first).
        private var devices: [(id: String, bands: DeviceBands)] = []
        /// The devices (id and type) of the last snapshot whose lanes were looked at.
        private var lanesLookedAt: [(id: String, type: String)] = []
        /// The instant of the last snapshot taken in, to ignore a repeated one.
        private var lastAt: SimInstant?

        /// An empty trace for a chart over `[start, end]` (`start < end`).
        public init(start: SimInstant, end: SimInstant) {
            layout = Layout(start: start, end: end, laneCount: 0, temperatures: [])
            indoor = Line(layout: layout)
            outdoor = Line(layout: layout)
        }

        /// Takes in a snapshot later than every one before (an earlier or equal one is ignored).
        public mutating func add(_ snapshot: MeterSnapshot) {
            if let lastAt, snapshot.at <= lastAt { return }
            lastAt = snapshot.at
            // A listing's devices seldom change: their types are looked at again only when they do.
            if !Self.same(snapshot.devices, lanesLookedAt) {
                for d in snapshot.devices where (d.type == "heating" || d.type == "cooling") && !laneTypes.contains(where: { $0.id == d.id }) {
                    laneTypes.append((d.id, d.type))
                }
                lanesLookedAt = snapshot.devices.map { ($0.id, $0.type) }
            }
            if !settled {
                if snapshot.at <= layout.start {
                    base = snapshot
                } else {
                    settle()
                }
            }
            guard snapshot.at >= layout.start, snapshot.at <= layout.end else { return }
            if nonFiniteAt == nil, !snapshot.indoorC.isFinite || !snapshot.outdoorC.isFinite { nonFiniteAt = snapshot.at }
            indoor.add(snapshot.at, snapshot.indoorC)
            outdoor.add(snapshot.at, snapshot.outdoorC)
        }

        /// Whether `devices` have the ids and types of `seen`, in order.
        private static func same(_ devices: [DeviceMeter], _ seen: [(id: String, type: String)]) -> Bool {
            guard devices.count == seen.count else { return false }
            for index in devices.indices where devices[index].id != seen[index].id || devices[index].type != seen[index].type { return false }
            return true
        }

        /// Takes in a power transition, not earlier than those before.
        public mutating func add(_ transition: PowerTransition) {
            if settled { apply(transition) } else { waiting.append(transition) }
        }

        /// The state at the start is known: switch the waiting transitions.
        private mutating func settle() {
            settled = true
            for transition in waiting { apply(transition) }
            waiting = []
        }

        /// One transition of one device, on top of the state at the start.
        private mutating func apply(_ t: PowerTransition) {
            if let base, t.at < base.at { return }
            let at = max(t.at, layout.start)
            guard at <= layout.end else { return }
            if let index = devices.firstIndex(where: { $0.id == t.device }) {
                devices[index].bands.switchTo(t.powerW > 0, at: at, layout)
            } else {
                var bands = DeviceBands(on: (base?.device(t.device)?.powerW ?? 0) > 0, since: layout.start)
                bands.switchTo(t.powerW > 0, at: at, layout)
                devices.append((t.device, bands))
            }
        }

        /// The lanes, sorted by device id, each with its bands to the end of the chart.
        func lanes() -> [(lane: Lane, bands: [(SimInstant, SimInstant)])] {
            var trace = self
            if !trace.settled { trace.settle() }
            return laneTypes.sorted { $0.id < $1.id }.map { lane in
                var bands = trace.devices.first { $0.id == lane.id }?.bands
                    ?? DeviceBands(on: (trace.base?.device(lane.id)?.powerW ?? 0) > 0, since: layout.start)
                bands.close(at: layout.end, layout)
                return (Lane(device: lane.id, type: lane.type), bands.bands)
            }
        }

        /// One temperature line: per pixel column the first, lowest, highest and last point (all
        /// of them when there are four or fewer), in time order.
        struct Line: Sendable {
            let layout: Layout
            /// Points of the columns before the current one.
            private(set) var kept: [(SimInstant, Double)] = []
            /// The current column.
            private var column: Int?
            /// Its first four points; beyond four, its first, lowest, highest and last.
            private var first4: [(SimInstant, Double)] = []
            private var count = 0
            private var low: (index: Int, point: (SimInstant, Double)) = (0, (.epoch, 0))
            private var high: (index: Int, point: (SimInstant, Double)) = (0, (.epoch, 0))
            private var last: (SimInstant, Double) = (.epoch, 0)

            init(layout: Layout) { self.layout = layout }

            /// Adds a point later than the ones before.
            mutating func add(_ at: SimInstant, _ value: Double) {
                let x = Int(layout.x(at).rounded(.down))
                if x != column {
                    flush()
                    column = x
                }
                if count < 4 { first4.append((at, value)) }
                if count == 0 || value < low.point.1 { low = (count, (at, value)) }
                if count == 0 || value > high.point.1 { high = (count, (at, value)) }
                last = (at, value)
                count += 1
            }

            /// Every point kept, in time order.
            var points: [(SimInstant, Double)] {
                var line = self
                line.flush()
                return line.kept
            }

            /// Closes the current column.
            private mutating func flush() {
                if count <= 4 {
                    kept.append(contentsOf: first4)
                } else {
                    var chosen: [(index: Int, point: (SimInstant, Double))] = [(0, first4[0]), low, high, (count - 1, last)]
                    chosen.sort { $0.index < $1.index }
                    for (offset, entry) in chosen.enumerated() where offset == 0 || entry.index != chosen[offset - 1].index {
                        kept.append(entry.point)
                    }
                }
                first4.removeAll(keepingCapacity: true)
                count = 0
            }
        }

        /// One device's on-periods, merged into bands as they close.
        struct DeviceBands: Sendable {
            var on: Bool
            var since: SimInstant
            var bands: [(SimInstant, SimInstant)] = []

            init(on: Bool, since: SimInstant) {
                self.on = on
                self.since = since
            }

            /// The device draws power (`now`) from `at` on.
            mutating func switchTo(_ now: Bool, at: SimInstant, _ layout: Layout) {
                guard now != on else { return }
                if on, since < at { append((since, at), layout) }
                since = at
                on = now
            }

            /// The chart ends at `end`: an open period ends there.
            mutating func close(at end: SimInstant, _ layout: Layout) {
                if on, since < end { append((since, end), layout) }
                on = false
            }

            private mutating func append(_ period: (SimInstant, SimInstant), _ layout: Layout) {
                ListingChart.merge(period, into: &bands, layout)
            }
        }
    }
}
