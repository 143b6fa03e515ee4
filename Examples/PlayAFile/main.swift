// Plays a content file on a board and prints what the session did.
// Usage: play-a-file FILE [BOARD]   (BOARD: `sim` by default, or a board file / name in Boards/)
import ActuatorHALLinux
import BoardFiles
import Foundation
import HapticRuntime
import HardwareMocks

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let file = URL(fileURLWithPath: arguments.first ?? "Examples/notation/success-confirmation.hnl")
    let board = try Board.named(arguments.count > 1 ? arguments[1] : Board.simName)
    let opened = try board.open(on: board.isSimulated ? SimulatedBoardHardware() : LinuxBoardHardware())
    defer { opened.close() }
    let session = PlaybackSession(board: opened, pace: board.isSimulated ? .stepped : .threaded(RealtimeThread()))
    let item = PlaybackSession.Item(name: file.lastPathComponent, content: try ContentLoader.load(contentsOf: file), soundFolder: file.deletingLastPathComponent())
    let report = try session.play([item])
    print("played \(item.name) on \(board.name): \(report.events) events, \(report.commands) commands, \(report.late) late")
} catch {
    print("play-a-file: \(error)")
    exit(1)
}
