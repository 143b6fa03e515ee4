import Foundation
import HapticRuntime

/// Clips derived from sounds, kept so a sound played again is not analysed again: one `.haptic`
/// file per sound content and settings, named by a hash of both (64-bit FNV-1a of the sound file's
/// bytes, then of the settings as a preset). A cached file that no longer reads is analysed anew.
///
/// The folder: `--cache-dir`; else `$HAPTICBOARD_CACHE_DIR`; else `/var/cache/hapticboard` when
/// running as root; else `$XDG_CACHE_HOME/hapticboard`; else `~/.cache/hapticboard`. It is never
/// the repository or the sound's folder, and may be deleted at any time.
struct DerivedHapticsCache {
    static let environmentVariable = "HAPTICBOARD_CACHE_DIR"
    /// Sub-folder for clips derived from sounds.
    static let folderName = "sound-haptics"

    let directory: String

    init(directory override: String?) {
        directory = override ?? Self.defaultDirectory(
            environment: ProcessInfo.processInfo.environment, isRoot: geteuid() == 0,
            home: FileManager.default.homeDirectoryForCurrentUser.path)
    }

    /// The default-directory rule, with its inputs passed in so it can be tested.
    static func defaultDirectory(environment: [String: String], isRoot: Bool, home: String) -> String {
        if let named = environment[environmentVariable], !named.isEmpty { return named }
        if isRoot { return "/var/cache/hapticboard" }
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/hapticboard" }
        return home + "/.cache/hapticboard"
    }

    /// Whether the last `content(ofSound:settings:)` call found its clip in the cache.
    private(set) var lastWasHit = false

    /// The content of the sound at `url` (its clip, and the sound as an AudioCustom event), from
    /// the cache or analysed and stored. A cache that cannot be written is only a warning.
    mutating func content(ofSound url: URL, settings: SoundAnalysisSettings, warn: (String) -> Void) throws -> LoadedContent {
        let data: Data
        do {
            data = try ContentFileReading.data(of: url)
        } catch {
            // A sound may be larger than a content file: hash it in pieces instead.
            guard case .tooLarge = error, let hash = Self.hashOfFile(at: url) else { throw CommandLineError.content("\(url.path): cannot read the file: \(error.reason)") }
            return try content(ofSound: url, key: Self.key(hash, settings), settings: settings, warn: warn)
        }
        return try content(ofSound: url, key: Self.key(Self.fnv1a(data), settings), settings: settings, warn: warn)
    }

    private mutating func content(ofSound url: URL, key: String, settings: SoundAnalysisSettings, warn: (String) -> Void) throws -> LoadedContent {
        let file = URL(fileURLWithPath: directory).appendingPathComponent(Self.folderName).appendingPathComponent(key + ".haptic")
        if let text = try? String(contentsOf: file, encoding: .utf8), let cached = try? HapticClip.read(text: text, file: file.path), let clip = cached.clip {
            lastWasHit = true
            return SoundHaptics.content(for: clip, soundFile: url)
        }
        lastWasHit = false
        let content: LoadedContent
        do {
            content = try SoundHaptics.load(contentsOf: url, reading: .linux(settings: settings))
        } catch {
            throw CommandLineError.content(error.description)
        }
        if let clip = content.clip {
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try clip.text.write(to: file, atomically: true, encoding: .utf8)
            } catch {
                warn("\(file.path): cannot cache the derived haptics: \((error as NSError).localizedDescription)")
            }
        }
        return content
    }

    private static func key(_ soundHash: UInt64, _ settings: SoundAnalysisSettings) -> String {
        let combined = fnv1a(Data(settings.presetText.utf8), seed: soundHash)
        return String(soundHash, radix: 16) + "-" + String(combined, radix: 16)
    }

    /// 64-bit FNV-1a: fast, and collisions between a user's sounds are not a concern for a cache
    /// keyed also by length-sensitive content.
    static func fnv1a(_ data: Data, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func hashOfFile(at url: URL) -> UInt64? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash = fnv1a(chunk, seed: hash)
        }
        return hash
    }
}
