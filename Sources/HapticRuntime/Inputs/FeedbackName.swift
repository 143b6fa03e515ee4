extension Note.HapticFeedback {
    /// UIKit's feedback vocabulary by name, as board files write it: `impact` (medium),
    /// `impact/light` … `impact/rigid`, `notification/success|warning|error`, `selection`.
    public init?(name: String) {
        let parts = name.lowercased().split(separator: "/", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count > 1 ? parts[1] : nil) {
        case ("impact", let style):
            guard let impact = Impact(rawValue: style ?? "medium") else { return nil }
            self = .impact(impact)
        case ("notification", let kind?):
            // UIKit's `error` is Piano's `failure`.
            guard let notification = Notification(rawValue: kind == "error" ? "failure" : kind) else { return nil }
            self = .notification(notification)
        case ("selection", nil):
            self = .selection
        default:
            return nil
        }
    }

    /// The names `init?(name:)` takes, for messages.
    public static let names = "impact[/light|medium|heavy|soft|rigid], notification/success|warning|error, selection"
}
