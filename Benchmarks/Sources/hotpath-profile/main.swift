// Repeats one hot path so `valgrind --tool=callgrind` can count its instructions (docs/performance.md):
//   hotpath-profile start N     N × player.start() of a click on a ready chip until its first bus write
//   hotpath-profile schedule N  N × DeadlineScheduler.schedule(at: now) until the action runs
//   hotpath-profile stream N    N real-time amplitude samples in steady state (virtual clock)
//   hotpath-profile trigger N   N × HapticService.play of a rigid impact (what `serve` does below HTTP)
// Divide a function's inclusive count by N for its cost per call.
import BenchmarkFixtures
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first, let count = arguments.dropFirst().first.flatMap({ Int($0) }), count > 0 else {
    FileHandle.standardError.write(Data("usage: hotpath-profile start|schedule|stream|trigger COUNT\n".utf8))
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
default:
    FileHandle.standardError.write(Data("hotpath-profile: unknown mode \(mode)\n".utf8))
    exit(2)
}
