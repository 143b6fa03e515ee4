import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HapticRuntime
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// A request's context: Hummingbird's, the connection it came on and, on the Unix socket, the
/// peer's credentials.
struct ServeRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    /// The connection, which is the service's client (feedback it started ends with it).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }

    /// Request bodies are capped: content beyond this is refused with 413 before it is read.
    var maxUploadSize: Int { ServeLimits.maximumBodySize }
}

/// Limits of the transport.
enum ServeLimits {
    /// 1 MiB: more than any haptic pattern needs.
    static let maximumBodySize = 1 << 20
}

/// The service's clients by connection: each connection gets an id and, on the Unix socket, its
/// peer's uid and pid (SO_PEERCRED), logged once; when it closes, its feedback stops.
final class ServeClients: @unchecked Sendable {
    private let lock = NSLock()
    private var clients: [ObjectIdentifier: ServiceClient] = [:]
    private var nextID = 0
    private let service: HapticService
    /// Users whose clients may play events louder than the profile (alarms); root always may.
    private let overrideUIDs: Set<UInt32>
    /// Whether a TCP client that showed the token may override the profile.
    private let tokenHoldersMayOverride: Bool
    private let logger: Logger

    init(service: HapticService, overrideUIDs: Set<UInt32>, tokenHoldersMayOverride: Bool, logger: Logger) {
        self.service = service
        self.overrideUIDs = overrideUIDs
        self.tokenHoldersMayOverride = tokenHoldersMayOverride
        self.logger = logger
    }

    /// The client `channel` is, if it has made a request before.
    func known(on channel: any Channel) -> ServiceClient? {
        lock.withLock { clients[ObjectIdentifier(channel)] }
    }

    /// The client `channel` is, made on its first request.
    func client(on channel: any Channel) async -> ServiceClient {
        let key = ObjectIdentifier(channel)
        if let known = lock.withLock({ clients[key] }) { return known }
        let credentials = await PeerCredentials.of(channel)
        let (client, isNew) = lock.withLock { () -> (ServiceClient, Bool) in
            if let known = clients[key] { return (known, false) }
            nextID += 1
            let mayOverride = credentials.map { $0.uid == 0 || overrideUIDs.contains($0.uid) } ?? tokenHoldersMayOverride
            let client = ServiceClient(id: nextID, uid: credentials?.uid, pid: credentials?.pid, mayOverrideProfile: mayOverride)
            clients[key] = client
            return (client, true)
        }
        guard isNew else { return client }
        let peer = credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "\(channel.remoteAddress.map { "\($0)" } ?? "unknown peer")"
        logger.info("client \(client.id) connected: \(peer)")
        channel.closeFuture.whenComplete { [weak self] _ in self?.left(key) }
        return client
    }

    private func left(_ key: ObjectIdentifier) {
        guard let client = lock.withLock({ clients.removeValue(forKey: key) }) else { return }
        logger.info("client \(client.id) disconnected")
        service.clientLeft(client)
    }
}

/// The peer of a Unix-socket connection, from the kernel (SO_PEERCRED).
struct PeerCredentials: Sendable {
    var uid: UInt32
    var pid: Int32

    /// The credentials of `channel`'s peer; nil on TCP or when the kernel does not say.
    static func of(_ channel: any Channel) async -> PeerCredentials? {
        guard case .unixDomainSocket? = channel.localAddress, let provider = channel as? any SocketOptionProvider else { return nil }
        guard let credentials: KernelCredentials = try? await provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED)).get() else {
            return nil
        }
        return PeerCredentials(uid: credentials.uid, pid: credentials.pid)
    }

    /// Linux's `struct ucred` (which Glibc's module shows only with _GNU_SOURCE): pid, uid, gid.
    private struct KernelCredentials: Sendable {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }
}
