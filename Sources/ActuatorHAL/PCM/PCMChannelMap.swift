/// Which channels of a PCM device carry one actuator's drive, e.g. channels 3–4 of a
/// four-channel USB haptic controller (the same signal on both coils of a stereo pair).
public struct PCMChannelMap: Sendable, Hashable, CustomStringConvertible {
    /// Channels the device stream has.
    public let deviceChannels: Int
    /// Zero-based device channels that receive the drive signal, ascending, without repeats.
    public let channels: [Int]

    /// A map of `channels` (zero-based) out of `deviceChannels`.
    /// - Throws: `PCMChannelMapError` when the device has no channels, the map is empty, or a
    ///   channel is repeated or outside the device.
    public init(deviceChannels: Int, channels: [Int]) throws(PCMChannelMapError) {
        guard deviceChannels > 0 else { throw .noDeviceChannels(deviceChannels) }
        guard !channels.isEmpty else { throw .empty }
        if let outside = channels.first(where: { !(0..<deviceChannels).contains($0) }) {
            throw .outsideDevice(channel: outside, deviceChannels: deviceChannels)
        }
        guard Set(channels).count == channels.count else { throw .repeated(channels) }
        self.deviceChannels = deviceChannels
        self.channels = channels.sorted()
    }

    /// Every channel of a `deviceChannels`-channel device.
    public static func all(of deviceChannels: Int) throws(PCMChannelMapError) -> PCMChannelMap {
        try PCMChannelMap(deviceChannels: deviceChannels, channels: Array(0..<max(0, deviceChannels)))
    }

    /// Interleaved device frames with `signal` (one sample per frame) on the mapped channels and
    /// silence on the others.
    public func interleave(_ signal: [Int16]) -> [Int16] {
        var frames = [Int16](repeating: 0, count: signal.count * deviceChannels)
        for (frame, sample) in signal.enumerated() {
            let base = frame * deviceChannels
            for channel in channels { frames[base + channel] = sample }
        }
        return frames
    }

    /// `3-4 of 4` (one-based, as board files and `aplay` channel names count).
    public var description: String {
        let names = channels.map { String($0 + 1) }
        let isRun = channels.count > 1 && channels.last.map { $0 - channels[0] + 1 == channels.count } == true
        return "\(isRun ? "\(names[0])-\(names[names.count - 1])" : names.joined(separator: ",")) of \(deviceChannels)"
    }
}

/// Why a channel map is not usable.
public enum PCMChannelMapError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device was given this many (≤ 0) channels.
    case noDeviceChannels(Int)
    /// The map names no channel.
    case empty
    /// `channel` (zero-based) is not on the device.
    case outsideDevice(channel: Int, deviceChannels: Int)
    /// The map (zero-based) names a channel twice.
    case repeated([Int])

    public var description: String {
        switch self {
        case .noDeviceChannels(let count): "a PCM device needs at least one channel, not \(count)"
        case .empty: "the channel map names no channel"
        case .outsideDevice(let channel, let count): "channel \(channel + 1) is not one of the device's \(count) channels (1-\(count))"
        case .repeated(let channels): "channel map \(channels.map { $0 + 1 }) names a channel twice"
        }
    }
}
