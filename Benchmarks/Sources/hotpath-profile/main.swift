// Repeats one hot path so `valgrind --tool=callgrind` can count its instructions (docs/performance.md):
//   hotpath-profile start N     N × player.start() of a click on a ready chip until its first bus write
//   hotpath-profile schedule N  N × DeadlineScheduler.schedule(at: now) until the action runs
//   hotpath-profile stream N    N real-time amplitude samples in steady state (virtual clock)
//   hotpath-profile trigger N   N × HapticService.play of a rigid impact (what `serve` does below HTTP)
//   hotpath-profile parameters N  N × sendParameters to a playing 30 s continuous player (a game's live control)
//   hotpath-profile ff-play N   N × an EV_FF play of an uploaded rumble through the force-feedback provider
//                               until its first bus write, then its stop
//   hotpath-profile ff-upload N  N × an EV_FF upload of a 10 s followed sine (a new magnitude each time)
//   hotpath-profile ff-ramp-upload N  N × an EV_FF upload of a 65,535 ms ramp (a new start each time)
// Divide a function's inclusive count by N for its cost per call.
//   hotpath-profile start-times N  N starts after each of three pauses (0.2, 2, 20 ms), timed on the
//                                  real clock: p50/p90/p99 µs from start() to the first write. Not for
//                                  callgrind; run two builds one after the other to compare them.
//   hotpath-profile trigger-times N  the same for HapticService.play of a rigid impact: from the call to
//                                  the first write
//   hotpath-profile ff-play-times N  the same for ff-play: from the play written into the device to the
//                                  first write
//   hotpath-profile parameters-times N  N sends to that player 1/60 s apart, timed on the real clock:
//                                  p50/p90/max µs per hundred sends, which must not grow with the sends
import BenchmarkFixtures
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first, let count = arguments.dropFirst().first.flatMap({ Int($0) }), count > 0 else {
    FileHandle.standardError.write(Data("usage: hotpath-profile start|schedule|stream|trigger|parameters|ff-play|ff-upload|ff-ramp-upload|start-times|trigger-times|ff-play-times|parameters-times COUNT\n".utf8))
    exit(2)
}
switch mode {
case "start":
    let fixture = try ReadyEngine()
    for _ in 0..<count { try fixture.startOneClick() }
case "schedule":
    let fixture = SchedulerRoundTrip()
    for _ in 0..<count { fixture.once() }
case "stream":
    let fixture = try SteadyStream()
    fixture.run(samples: count)
case "trigger":
    let fixture = try ReadyService()
    for _ in 0..<count { try fixture.triggerOnce() }
case "parameters":
    let fixture = try ControlledPlayer()
    for _ in 0..<count { _ = try fixture.sendOnce() }
case "ff-play":
    let fixture = try ReadyForceFeedback()
    for _ in 0..<count { try fixture.playOnce() }
case "ff-upload":
    let fixture = try ReadyForceFeedback()
    for sample in 0..<count { try fixture.uploadNewWave(sample) }
case "ff-ramp-upload":
    let fixture = try ReadyForceFeedback()
    for sample in 0..<count { try fixture.uploadNewRamp(sample) }
case "start-times":
    let fixture = try ReadyEngine()
    try printTimes(count, "starts") { try fixture.startOneClick() }
case "trigger-times":
    let fixture = try ReadyService()
    try printTimes(count, "triggers") { try fixture.triggerOnce() }
case "ff-play-times":
    let fixture = try ReadyForceFeedback()
    try printTimes(count, "plays") { try fixture.playOnce() }
case "parameters-times":
    let fixture = try ControlledPlayer()
    for window in stride(from: 0, to: count, by: 100) {
        var microseconds: [Double] = []
        for _ in window..<min(window + 100, count) {
            usleep(16_667)
            microseconds.append(Double(try fixture.sendOnce().nanoseconds) / 1_000)
        }
        microseconds.sort()
        print("sends \(window + 1)-\(window + microseconds.count): p50 \(microseconds[microseconds.count / 2]) µs, p90 \(microseconds[microseconds.count * 9 / 10]) µs, max \(microseconds.last ?? 0) µs")
    }
default:
    FileHandle.standardError.write(Data("hotpath-profile: unknown mode \(mode)\n".utf8))
    exit(2)
}

/// Runs `once` `count` times after each of three pauses (0.2, 2, 20 ms: a warm, a cooling and a
/// cold cache) and prints the percentiles of the times it returns.
func printTimes(_ count: Int, _ what: String, _ once: () throws -> Duration?) throws {
    for pause in [200, 2_000, 20_000] {
        var microseconds: [Double] = []
        for _ in 0..<count {
            usleep(UInt32(pause))
            if let took = try once() { microseconds.append(Double(took.nanoseconds) / 1_000) }
        }
        microseconds.sort()
        let at = { (percent: Int) in microseconds.isEmpty ? .nan : microseconds[min(microseconds.count - 1, microseconds.count * percent / 100)] }
        print("after \(Double(pause) / 1_000) ms: \(microseconds.count) \(what), p50 \(at(50)) µs, p90 \(at(90)) µs, p99 \(at(99)) µs")
    }
}
