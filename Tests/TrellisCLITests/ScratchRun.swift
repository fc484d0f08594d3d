import Foundation
import TrellisCLI

/// `trellis ARGUMENTS` in a scratch folder holding `files` (name → bytes), removed afterwards:
/// its exit status, standard output and error, and the files the run left in the folder.
func runInScratch(
    _ arguments: [String], files: [String: Data]
) throws -> (status: Int32, stdout: String, stderr: String, left: [String: Data]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-scratch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for (name, bytes) in files { try bytes.write(to: folder.appendingPathComponent(name)) }
    var io = CommandIO(standardInput: { Data() }, currentDirectory: folder)
    let status = TrellisCommandLine.run(arguments, io: &io)
    var left: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        left[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return (status, String(decoding: io.stdoutBytes, as: UTF8.self), io.stderr, left)
}
