import ActuatorHAL
import HardwareMocks

/// The simulated devices behind a board file's `sim` buses (or, for `inspect` and `render`, stand-ins
/// for its real ones): a chip directly on a bus is a `SimulatedBoard` of its own; the chips behind
/// one multiplexer share one `SimulatedMuxBoard` — one bus, one switch, one clock — so content
/// started on several of them meets the same wire a real board has.
struct SimulatedBoardHardware {
    private var muxBoards: [String: (board: SimulatedMuxBoard, switch: TCA9548A)] = [:]
    private let file: BoardFile

    init(file: BoardFile) {
        self.file = file
    }

    /// The driver and simulated parts for actuator `index`, a chip of `variant` on `bus`, behind
    /// `mux` when given.
    mutating func driver(forActuatorAt index: Int, variant: DRV2605Variant, on bus: BusDescription, behind mux: MuxDescription?) throws(BoardChipsError) -> (DRV2605, SimulatedBoard) {
        guard let mux else {
            let simulated = SimulatedBoard(variant: DRV2605Model.Variant(variant), speedHz: bus.clockFrequency)
            return (DRV2605(bus: simulated.bus, address: SimulatedBoard.chipAddress, enableLine: simulated.enableLine, clock: simulated.clock), simulated)
        }
        let (board, tca9548a) = try muxBoard(mux, on: bus)
        let channel = file.description.actuators[index].muxChannel ?? 0
        guard let position = board.channels.firstIndex(of: channel) else {
            throw .boardFile(file.problem(at: BoardKeyPath([.key("actuators"), .index(index), .key("mux-channel")]), "no channel \(channel) on \(mux.name)"))
        }
        let simulated = board.chipBoards[position]
        let channelBus: TCA9548AChannel
        do { channelBus = try tca9548a.channel(channel) } catch {
            throw .boardFile(file.problem(at: BoardKeyPath([.key("actuators"), .index(index), .key("mux-channel")]), "\(error)"))
        }
        return (DRV2605(bus: channelBus, address: SimulatedBoard.chipAddress, enableLine: simulated.enableLine, clock: simulated.clock), simulated)
    }

    /// The simulated board of `mux`, made the first time with a chip on each channel the file
    /// puts one on.
    private mutating func muxBoard(_ mux: MuxDescription, on bus: BusDescription) throws(BoardChipsError) -> (SimulatedMuxBoard, TCA9548A) {
        if let made = muxBoards[mux.name] { return made }
        let behind = file.description.actuators.filter { $0.mux == mux.name && $0.compatible.hasPrefix("ti,drv260") }
        do {
            let board = try SimulatedMuxBoard(
                channels: behind.map { $0.muxChannel ?? 0 },
                variants: behind.map { DRV2605Model.Variant(DRV2605Variant(compatible: $0.compatible)) },
                speedHz: bus.clockFrequency
            )
            let made = (board, try TCA9548A(parent: board.bus, address: SimulatedMuxBoard.muxAddress))
            muxBoards[mux.name] = made
            return made
        } catch {
            let muxIndex = file.description.muxes.firstIndex { $0.name == mux.name } ?? 0
            throw .boardFile(file.problem(at: BoardKeyPath([.key("muxes"), .index(muxIndex)]), "\(error)"))
        }
    }
}
