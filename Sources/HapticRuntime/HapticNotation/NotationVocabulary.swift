/// The fixed words of the language, with the values the seed's tables give the aliases.
enum NotationVocabulary {
    static let intensityAliases: [String: Double] = [
        "silent": 0.0, "soft": 0.3, "medium": 0.5, "loud": 0.8, "max": 1.0,
    ]
    static let sharpnessAliases: [String: Double] = ["dull": 0.0, "balanced": 0.5, "sharp": 1.0]
    static let keywords: Set<String> = ["define", "continuous", "sequence", "loop", "ramp"]
    static let properties: Set<String> = ["intensity", "sharpness", "interval", "adsr", "curve"]
    static let curves: Set<String> = ["linear", "easeIn", "easeOut", "easeInOut", "cubic"]

    /// Words a `define` may not take, because a line holding only that word already means something.
    static var reserved: Set<String> {
        keywords.union(properties).union(curves)
            .union(intensityAliases.keys).union(sharpnessAliases.keys)
    }
}
