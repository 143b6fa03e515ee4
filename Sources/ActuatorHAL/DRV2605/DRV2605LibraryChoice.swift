/// The ROM waveform libraries as the datasheet tabulates them, and the library an actuator gets
/// when its board file names none.
///
/// DRV2605L datasheet (SLOS854D), "Waveform Library Selection" table and the note under the
/// closed-loop bidirectional data format: library A is the TouchSense 2200 library with its
/// overdrive programmed into the waveforms, "Library A should only be used in open-loop mode";
/// libraries B–F carry no overdrive and take advantage of closed loop's automatic overdrive and
/// braking. Library F exists on the DRV2605L only.
public enum DRV2605LibraryChoice {
    /// One row of the table: the ERM each library was tuned for.
    public struct Profile: Sendable, Hashable {
        public var library: ROMLibrary
        /// Rated (average) voltage of the ERM the library suits, volts.
        public var ratedVoltage: Double
        /// Overdrive voltage the library's waveforms assume, volts.
        public var overdriveVoltage: Double
        /// Rise time of that ERM, milliseconds: at least this…
        public var riseTimeFrom: Int
        /// …and at most this (`nil`: longer than `riseTimeFrom`, no upper bound given).
        public var riseTimeTo: Int?
        /// Whether the library may be played in closed loop.
        public var closedLoop: Bool
    }

    /// The ERM libraries, A to F.
    public static let ermProfiles: [Profile] = [
        Profile(library: .ermA, ratedVoltage: 1.3, overdriveVoltage: 3.0, riseTimeFrom: 40, riseTimeTo: 60, closedLoop: false),
        Profile(library: .ermB, ratedVoltage: 3.0, overdriveVoltage: 3.0, riseTimeFrom: 40, riseTimeTo: 60, closedLoop: true),
        Profile(library: .ermC, ratedVoltage: 3.0, overdriveVoltage: 3.0, riseTimeFrom: 60, riseTimeTo: 80, closedLoop: true),
        Profile(library: .ermD, ratedVoltage: 3.0, overdriveVoltage: 3.0, riseTimeFrom: 100, riseTimeTo: 140, closedLoop: true),
        Profile(library: .ermE, ratedVoltage: 3.0, overdriveVoltage: 3.0, riseTimeFrom: 140, riseTimeTo: nil, closedLoop: true),
        Profile(library: .ermF, ratedVoltage: 4.5, overdriveVoltage: 5.0, riseTimeFrom: 35, riseTimeTo: 45, closedLoop: true),
    ]

    /// Whether `library` may be played in `loop` (library A: open loop only).
    public static func allows(_ library: ROMLibrary, in loop: DRV2605Loop) -> Bool {
        loop == .open || ermProfiles.first { $0.library == library }?.closedLoop ?? true
    }

    /// The library for an actuator whose board file names none: the LRA library for an LRA;
    /// library A for an open-loop ERM (the library made for open-loop drive); for a closed-loop
    /// ERM, among the closed-loop libraries `variant` has, the one whose rated voltage is nearest
    /// the actuator's, the fastest rise breaking ties (B for a typical 3 V ERM, F for a 4.5 V one
    /// on a DRV2605L). `nil` on a part without ROM.
    public static func defaultLibrary(for ratings: DRV2605Ratings, on variant: DRV2605Variant) -> ROMLibrary? {
        guard variant.hasROMLibrary else { return nil }
        switch (ratings.kind, ratings.loop) {
        case (.lra, _): return .lra
        case (_, .open): return .ermA
        case (_, .closed):
            let candidates = ermProfiles.filter { $0.closedLoop && variant.supports($0.library) }
            return candidates.min { a, b in
                let (distanceA, distanceB) = (abs(a.ratedVoltage - ratings.ratedVoltage), abs(b.ratedVoltage - ratings.ratedVoltage))
                return distanceA != distanceB ? distanceA < distanceB : a.riseTimeFrom < b.riseTimeFrom
            }?.library
        }
    }
}
