/// The Haptic Notation Language (HNL) reader: text such as
///
///     loud sharp
///     . 0.3s
///     continuous 0.4s:
///       intensity: medium
///       adsr: 0.1, 0.3, 0.8, 1.0
///
/// becomes a `HapticPattern`. The language and its timing follow seed 003 and, where the seed is
/// silent, the public implementation (reddavis/HapticNotationLanguage):
///
/// - A transient does not advance time; a rest `.` advances by its time (0.1 s when none is given);
///   `continuous D:` and `ramp D:` advance by `D`; a reference plays its definition from the current time.
/// - `sequence N:` puts item i at i·N and ends at its last slot (later if the last item lasts longer).
/// - `loop k x N:` plays its n items at i·N in each of k iterations n·N long, and ends after k·n·N.
///   Inside `sequence` and `loop` a rest is a silent slot.
/// - `continuous D:` with `adsr: a, d, s, r` is one continuous event plus a `HapticIntensityControl`
///   curve through (0, 0), (a·D, 1), (d·D, s), (r·D, s) and (D, 1).
/// - `ramp D:` pulses every interval while short of `D`, then once at `D` with the end values.
///
/// Errors read like a compiler's: `file:line:column: message`, the line, a caret and a hint.
public enum HapticNotation {
    /// Bounds that keep hostile or mistyped input from running away; exceeding one is an error that
    /// points at the statement responsible.
    public struct Limits: Sendable, Hashable {
        /// The largest `Nx` of a `loop`.
        public var maximumLoopCount: Int
        /// The most pulses one `ramp` may play (besides its final one).
        public var maximumRampSteps: Int
        /// The most events a pattern may hold.
        public var maximumEvents: Int
        /// The most statements evaluated in all, counting every loop iteration and reference expansion.
        public var maximumEvaluationSteps: Int
        /// The deepest nesting of blocks.
        public var maximumNestingDepth: Int
        /// The latest time, in seconds, at which an event may end.
        public var maximumDuration: Double
        /// The deepest chain of definitions using definitions (each level is a nested call while playing).
        public var maximumReferenceDepth: Int

        /// Creates limits; the defaults are far above any pattern a person writes.
        public init(
            maximumLoopCount: Int = 10_000,
            maximumRampSteps: Int = 10_000,
            maximumEvents: Int = 100_000,
            maximumEvaluationSteps: Int = 1_000_000,
            maximumNestingDepth: Int = 32,
            maximumDuration: Double = 86_400,
            maximumReferenceDepth: Int = 64
        ) {
            self.maximumLoopCount = maximumLoopCount
            self.maximumRampSteps = maximumRampSteps
            self.maximumEvents = maximumEvents
            self.maximumEvaluationSteps = maximumEvaluationSteps
            self.maximumNestingDepth = maximumNestingDepth
            self.maximumDuration = maximumDuration
            self.maximumReferenceDepth = maximumReferenceDepth
        }

        /// The limits `parse` uses unless told otherwise.
        public static let standard = Limits()
    }

    /// The length of a rest written without a time (`.`), in seconds.
    public static let defaultRest = 0.1

    /// Core Haptics plays continuous events of at most this many seconds; longer ones get a warning.
    public static let longestContinuous = 30.0

    /// Ramp pulses closer than this to the ramp's end merge into its final pulse.
    static let rampEndTolerance = 1e-9

    /// Reads notation text into a pattern.
    ///
    /// - Parameters:
    ///   - text: the notation.
    ///   - file: the name errors and warnings give as their location (usually the path).
    ///   - limits: bounds on loops, ramps, events and work.
    /// - Returns: the pattern (events sorted by time; equal times keep text order) and the warnings:
    ///   clamped values, rest times ignored in slots, redefinitions, continuous events over 30 s.
    /// - Throws: `HapticNotationError` at the first problem, with its line, column and a hint.
    public static func parse(
        _ text: String, file: String = "<notation>", limits: Limits = .standard
    ) throws(HapticNotationError) -> LoadedContent {
        let source = NotationSource(text: text, file: file)
        let lines = try NotationTokenizer(source: source).lines()
        let blocks = try NotationBlock.tree(of: lines, source: source, maximumDepth: limits.maximumNestingDepth)
        var parser = NotationParser(source: source, limits: limits)
        let statements = try parser.parse(blocks)
        var evaluator = NotationEvaluator(source: source, limits: limits)
        _ = try evaluator.play(statements, from: 0)
        let events = evaluator.events.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        let pattern = HapticPattern(version: nil, events: events, parameters: evaluator.parameters, parameterCurves: evaluator.curves)
        return LoadedContent(format: .notation, pattern: pattern, warnings: parser.warnings + evaluator.warnings)
    }
}
