/// The API's OpenAPI 3.1 document, `Serve/openapi.json` embedded at build time; a test checks it
/// against the router's routes so the two cannot drift.
enum OpenAPIDocument {
    static let text = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
