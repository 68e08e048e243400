import Simulation

/// Every meter of one listing at one instant, with exact cumulative integrals since the start.
///
/// The scenario runner takes a snapshot at every instant a report or expectation asks about;
/// the difference of two snapshots gives exact figures for the interval between them (energy
/// per local day, mean indoor temperature and discomfort per stay). Nothing is sampled.
public struct MeterSnapshot: Sendable, Hashable {
    /// When the snapshot was taken.
    public var at: SimInstant
    /// The listing id, e.g. `flat-1`.
    public var listing: String
    /// Room temperature at ``at``, °C.
    public var indoorC: Double
    /// Outdoor temperature the listing sees at ``at``, °C.
    public var outdoorC: Double
    /// Guests present at ``at``.
    public var guests: Int
    /// ∫ T dt of the room temperature since the start, K·s (°C·s).
    public var temperatureIntegralKs: Double
    /// ∫ max(0, comfort − T) dt while guests are present, since the start, K·s.
    public var discomfortKs: Double
    /// Time with guests present since the start, s.
    public var occupiedSeconds: Double
    /// Every device's meters, sorted by id (locks included, with zero energy).
    public var devices: [DeviceMeter]

    /// Creates a snapshot; `devices` is sorted by id here, whatever order it arrives in.
    public init(at: SimInstant, listing: String, indoorC: Double, outdoorC: Double, guests: Int,
                temperatureIntegralKs: Double, discomfortKs: Double, occupiedSeconds: Double, devices: [DeviceMeter]) {
        self.at = at
        self.listing = listing
        self.indoorC = indoorC
        self.outdoorC = outdoorC
        self.guests = guests
        self.temperatureIntegralKs = temperatureIntegralKs
        self.discomfortKs = discomfortKs
        self.occupiedSeconds = occupiedSeconds
        // Snapshots usually arrive sorted (the runner and the ledger build them so): then no new array.
        self.devices = devices.indices.dropFirst().allSatisfy { devices[$0 - 1].id <= devices[$0].id }
            ? devices : devices.sorted { $0.id < $1.id }
    }

    /// The meter of device `id`, or `nil` when the listing has no such device.
    public func device(_ id: String) -> DeviceMeter? { devices.first { $0.id == id } }

    /// Total electric power of all devices at ``at``, W.
    public var totalPowerW: Double { devices.reduce(0) { $0 + $1.powerW } }

    /// Total electric energy of all devices since the start, kWh.
    public var totalEnergyKWh: Double { devices.reduce(0) { $0 + $1.energyKWh } }

    /// Electric energy of all devices from `earlier` to this snapshot, kWh: over this snapshot's
    /// devices in id order, its energy minus the same device's at `earlier` (0 for a device `earlier`
    /// lacks) — summed as ``EnergyLedger/energyKWh(listing:device:from:to:)`` sums the same two
    /// snapshots with no device, so both give the same number.
    public func energyKWh(since earlier: MeterSnapshot) -> Double {
        var sum = 0.0
        // By index, reading fields in place (no device copied out of either array).
        for offset in devices.indices {
            let before = offset < earlier.devices.count && earlier.devices[offset].id == devices[offset].id
                ? earlier.devices[offset].energyKWh : earlier.device(devices[offset].id)?.energyKWh ?? 0
            sum = sum + devices[offset].energyKWh - before
        }
        return sum
    }
}
