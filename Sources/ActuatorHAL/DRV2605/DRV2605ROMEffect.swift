/// One waveform of the DRV2605 ROM libraries: a name from the datasheet's "Waveform Library
/// Effects List", the drive level it reaches (the percentage in that name) and how long it lasts —
/// what the runtime plans a ROM effect's length by, and what the simulated chip plays.
///
/// The durations are ESTIMATES: TI publishes no per-effect duration table (only names such as
/// "750 ms Alert"), so clicks, ticks, buzzes and ramps get round figures by kind and length. Treat
/// anything timed from them as approximate. The simulated chip plays the whole effect at one level
/// (ramps in steps), without the kick and brake pulses of the real waveform.
public struct DRV2605ROMEffect: Sendable, Hashable {
    /// The datasheet's name, with its strength.
    public var name: String
    /// Drive level (fraction of full scale) at the start and at the end; equal unless a ramp.
    public var startLevel: Double
    public var endLevel: Double
    /// ESTIMATED length (see the type's documentation).
    public var estimatedDuration: Duration

    /// The effect with this id (1–123), or nil for ids the libraries do not define.
    public static func effect(_ id: UInt8) -> DRV2605ROMEffect? {
        guard (1...UInt8(table.count)).contains(id) else { return nil }
        return table[Int(id) - 1]
    }

    private static func steady(_ name: String, level: Double, milliseconds: Int) -> DRV2605ROMEffect {
        DRV2605ROMEffect(name: name, startLevel: level, endLevel: level, estimatedDuration: .milliseconds(milliseconds))
    }

    private static func ramp(_ name: String, from start: Double, to end: Double, milliseconds: Int) -> DRV2605ROMEffect {
        DRV2605ROMEffect(name: name, startLevel: start, endLevel: end, estimatedDuration: .milliseconds(milliseconds))
    }

    /// Ids 1–123 in order; the same ids exist in every library (A–F and LRA).
    private static let table: [DRV2605ROMEffect] = [
        steady("Strong Click - 100%", level: 1.00, milliseconds: 60), // 1
        steady("Strong Click - 60%", level: 0.60, milliseconds: 60), // 2
        steady("Strong Click - 30%", level: 0.30, milliseconds: 60), // 3
        steady("Sharp Click - 100%", level: 1.00, milliseconds: 50), // 4
        steady("Sharp Click - 60%", level: 0.60, milliseconds: 50), // 5
        steady("Sharp Click - 30%", level: 0.30, milliseconds: 50), // 6
        steady("Soft Bump - 100%", level: 1.00, milliseconds: 100), // 7
        steady("Soft Bump - 60%", level: 0.60, milliseconds: 100), // 8
        steady("Soft Bump - 30%", level: 0.30, milliseconds: 100), // 9
        steady("Double Click - 100%", level: 1.00, milliseconds: 160), // 10
        steady("Double Click - 60%", level: 0.60, milliseconds: 160), // 11
        steady("Triple Click - 100%", level: 1.00, milliseconds: 260), // 12
        steady("Soft Fuzz - 60%", level: 0.60, milliseconds: 300), // 13
        steady("Strong Buzz - 100%", level: 1.00, milliseconds: 400), // 14
        steady("750 ms Alert 100%", level: 1.00, milliseconds: 750), // 15
        steady("1000 ms Alert 100%", level: 1.00, milliseconds: 1000), // 16
        steady("Strong Click 1 - 100%", level: 1.00, milliseconds: 60), // 17
        steady("Strong Click 2 - 80%", level: 0.80, milliseconds: 60), // 18
        steady("Strong Click 3 - 60%", level: 0.60, milliseconds: 60), // 19
        steady("Strong Click 4 - 30%", level: 0.30, milliseconds: 60), // 20
        steady("Medium Click 1 - 100%", level: 1.00, milliseconds: 60), // 21
        steady("Medium Click 2 - 80%", level: 0.80, milliseconds: 60), // 22
        steady("Medium Click 3 - 60%", level: 0.60, milliseconds: 60), // 23
        steady("Sharp Tick 1 - 100%", level: 1.00, milliseconds: 40), // 24
        steady("Sharp Tick 2 - 80%", level: 0.80, milliseconds: 40), // 25
        steady("Sharp Tick 3 - 60%", level: 0.60, milliseconds: 40), // 26
        steady("Short Double Click Strong 1 - 100%", level: 1.00, milliseconds: 120), // 27
        steady("Short Double Click Strong 2 - 80%", level: 0.80, milliseconds: 120), // 28
        steady("Short Double Click Strong 3 - 60%", level: 0.60, milliseconds: 120), // 29
        steady("Short Double Click Strong 4 - 30%", level: 0.30, milliseconds: 120), // 30
        steady("Short Double Click Medium 1 - 100%", level: 1.00, milliseconds: 120), // 31
        steady("Short Double Click Medium 2 - 80%", level: 0.80, milliseconds: 120), // 32
        steady("Short Double Click Medium 3 - 60%", level: 0.60, milliseconds: 120), // 33
        steady("Short Double Sharp Tick 1 - 100%", level: 1.00, milliseconds: 120), // 34
        steady("Short Double Sharp Tick 2 - 80%", level: 0.80, milliseconds: 120), // 35
        steady("Short Double Sharp Tick 3 - 60%", level: 0.60, milliseconds: 120), // 36
        steady("Long Double Sharp Click Strong 1 - 100%", level: 1.00, milliseconds: 220), // 37
        steady("Long Double Sharp Click Strong 2 - 80%", level: 0.80, milliseconds: 220), // 38
        steady("Long Double Sharp Click Strong 3 - 60%", level: 0.60, milliseconds: 220), // 39
        steady("Long Double Sharp Click Strong 4 - 30%", level: 0.30, milliseconds: 220), // 40
        steady("Long Double Sharp Click Medium 1 - 100%", level: 1.00, milliseconds: 220), // 41
        steady("Long Double Sharp Click Medium 2 - 80%", level: 0.80, milliseconds: 220), // 42
        steady("Long Double Sharp Click Medium 3 - 60%", level: 0.60, milliseconds: 220), // 43
        steady("Long Double Sharp Tick 1 - 100%", level: 1.00, milliseconds: 220), // 44
        steady("Long Double Sharp Tick 2 - 80%", level: 0.80, milliseconds: 220), // 45
        steady("Long Double Sharp Tick 3 - 60%", level: 0.60, milliseconds: 220), // 46
        steady("Buzz 1 - 100%", level: 1.00, milliseconds: 300), // 47
        steady("Buzz 2 - 80%", level: 0.80, milliseconds: 300), // 48
        steady("Buzz 3 - 60%", level: 0.60, milliseconds: 300), // 49
        steady("Buzz 4 - 40%", level: 0.40, milliseconds: 300), // 50
        steady("Buzz 5 - 20%", level: 0.20, milliseconds: 300), // 51
        steady("Pulsing Strong 1 - 100%", level: 1.00, milliseconds: 500), // 52
        steady("Pulsing Strong 2 - 60%", level: 0.60, milliseconds: 500), // 53
        steady("Pulsing Medium 1 - 100%", level: 1.00, milliseconds: 500), // 54
        steady("Pulsing Medium 2 - 60%", level: 0.60, milliseconds: 500), // 55
        steady("Pulsing Sharp 1 - 100%", level: 1.00, milliseconds: 500), // 56
        steady("Pulsing Sharp 2 - 60%", level: 0.60, milliseconds: 500), // 57
        steady("Transition Click 1 - 100%", level: 1.00, milliseconds: 60), // 58
        steady("Transition Click 2 - 80%", level: 0.80, milliseconds: 60), // 59
        steady("Transition Click 3 - 60%", level: 0.60, milliseconds: 60), // 60
        steady("Transition Click 4 - 40%", level: 0.40, milliseconds: 60), // 61
        steady("Transition Click 5 - 20%", level: 0.20, milliseconds: 60), // 62
        steady("Transition Click 6 - 10%", level: 0.10, milliseconds: 60), // 63
        steady("Transition Hum 1 - 100%", level: 1.00, milliseconds: 250), // 64
        steady("Transition Hum 2 - 80%", level: 0.80, milliseconds: 250), // 65
        steady("Transition Hum 3 - 60%", level: 0.60, milliseconds: 250), // 66
        steady("Transition Hum 4 - 40%", level: 0.40, milliseconds: 250), // 67
        steady("Transition Hum 5 - 20%", level: 0.20, milliseconds: 250), // 68
        steady("Transition Hum 6 - 10%", level: 0.10, milliseconds: 250), // 69
        ramp("Transition Ramp Down Long Smooth 1 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 600), // 70
        ramp("Transition Ramp Down Long Smooth 2 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 600), // 71
        ramp("Transition Ramp Down Long Sharp 1 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 600), // 72
        ramp("Transition Ramp Down Long Sharp 2 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 600), // 73
        ramp("Transition Ramp Down Medium Smooth 1 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 300), // 74
        ramp("Transition Ramp Down Medium Smooth 2 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 300), // 75
        ramp("Transition Ramp Down Medium Sharp 1 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 300), // 76
        ramp("Transition Ramp Down Medium Sharp 2 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 300), // 77
        ramp("Transition Ramp Down Short Smooth 1 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 150), // 78
        ramp("Transition Ramp Down Short Smooth 2 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 150), // 79
        ramp("Transition Ramp Down Short Sharp 1 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 150), // 80
        ramp("Transition Ramp Down Short Sharp 2 - 100 to 0%", from: 1.00, to: 0.00, milliseconds: 150), // 81
        ramp("Transition Ramp Up Long Smooth 1 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 600), // 82
        ramp("Transition Ramp Up Long Smooth 2 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 600), // 83
        ramp("Transition Ramp Up Long Sharp 1 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 600), // 84
        ramp("Transition Ramp Up Long Sharp 2 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 600), // 85
        ramp("Transition Ramp Up Medium Smooth 1 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 300), // 86
        ramp("Transition Ramp Up Medium Smooth 2 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 300), // 87
        ramp("Transition Ramp Up Medium Sharp 1 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 300), // 88
        ramp("Transition Ramp Up Medium Sharp 2 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 300), // 89
        ramp("Transition Ramp Up Short Smooth 1 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 150), // 90
        ramp("Transition Ramp Up Short Smooth 2 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 150), // 91
        ramp("Transition Ramp Up Short Sharp 1 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 150), // 92
        ramp("Transition Ramp Up Short Sharp 2 - 0 to 100%", from: 0.00, to: 1.00, milliseconds: 150), // 93
        ramp("Transition Ramp Down Long Smooth 1 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 600), // 94
        ramp("Transition Ramp Down Long Smooth 2 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 600), // 95
        ramp("Transition Ramp Down Long Sharp 1 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 600), // 96
        ramp("Transition Ramp Down Long Sharp 2 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 600), // 97
        ramp("Transition Ramp Down Medium Smooth 1 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 300), // 98
        ramp("Transition Ramp Down Medium Smooth 2 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 300), // 99
        ramp("Transition Ramp Down Medium Sharp 1 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 300), // 100
        ramp("Transition Ramp Down Medium Sharp 2 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 300), // 101
        ramp("Transition Ramp Down Short Smooth 1 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 150), // 102
        ramp("Transition Ramp Down Short Smooth 2 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 150), // 103
        ramp("Transition Ramp Down Short Sharp 1 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 150), // 104
        ramp("Transition Ramp Down Short Sharp 2 - 50 to 0%", from: 0.50, to: 0.00, milliseconds: 150), // 105
        ramp("Transition Ramp Up Long Smooth 1 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 600), // 106
        ramp("Transition Ramp Up Long Smooth 2 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 600), // 107
        ramp("Transition Ramp Up Long Sharp 1 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 600), // 108
        ramp("Transition Ramp Up Long Sharp 2 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 600), // 109
        ramp("Transition Ramp Up Medium Smooth 1 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 300), // 110
        ramp("Transition Ramp Up Medium Smooth 2 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 300), // 111
        ramp("Transition Ramp Up Medium Sharp 1 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 300), // 112
        ramp("Transition Ramp Up Medium Sharp 2 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 300), // 113
        ramp("Transition Ramp Up Short Smooth 1 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 150), // 114
        ramp("Transition Ramp Up Short Smooth 2 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 150), // 115
        ramp("Transition Ramp Up Short Sharp 1 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 150), // 116
        ramp("Transition Ramp Up Short Sharp 2 - 0 to 50%", from: 0.00, to: 0.50, milliseconds: 150), // 117
        steady("Long buzz for programmatic stopping - 100%", level: 1.00, milliseconds: 1000), // 118
        steady("Smooth Hum 1 (No kick or brake pulse) - 50%", level: 0.50, milliseconds: 500), // 119
        steady("Smooth Hum 2 (No kick or brake pulse) - 40%", level: 0.40, milliseconds: 500), // 120
        steady("Smooth Hum 3 (No kick or brake pulse) - 30%", level: 0.30, milliseconds: 500), // 121
        steady("Smooth Hum 4 (No kick or brake pulse) - 20%", level: 0.20, milliseconds: 500), // 122
        steady("Smooth Hum 5 (No kick or brake pulse) - 10%", level: 0.10, milliseconds: 500), // 123
    ]
}
