import Logging

/// Keeps a logger's metadata as it is set and hands it to `base` only with a line that is written.
///
/// swift-log's `StreamLogHandler` formats all of its metadata into a string whenever one key is
/// set. Hummingbird sets a request id on each request's logger, so every trigger of `serve` paid
/// for that string (about 9,000 instructions, a tenth of the request's way to the handler: callgrind
/// over `bench --service`) although at the default level no line uses it.
struct DeferredMetadataLogHandler<Base: LogHandler>: LogHandler {
    private var base: Base
    var metadata: Logger.Metadata = [:]

    /// Wraps `base`; metadata already set on it stays there.
    init(_ base: Base) {
        self.base = base
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Passes the event on with this handler's metadata under the event's own (which wins a key
    /// both have, as it would in `base`).
    func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        base.log(event: event)
    }
}

extension DeferredMetadataLogHandler where Base == StreamLogHandler {
    /// What the commands log through (`GlobalOptions.bootstrapLogging`, and `bench --service` for
    /// the service it measures): lines on standard error.
    static func standardError(label: String) -> Self {
        Self(StreamLogHandler.standardError(label: label))
    }
}
