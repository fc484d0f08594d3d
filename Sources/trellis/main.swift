import Foundation
import TrellisCLI

TrellisCommandLine.installSignalHandlers()
var io = CommandIO(standardInput: { FileHandle.standardInput.readDataToEndOfFile() })
io.standardOutputDescriptor = STDOUT_FILENO
io.standardInputDescriptor = STDIN_FILENO
if isatty(STDERR_FILENO) == 1 { io.progressDescriptor = STDERR_FILENO }
let status = TrellisCommandLine.run(Array(CommandLine.arguments.dropFirst()), io: &io)
FileHandle.standardOutput.write(Data(io.stdout.utf8))
FileHandle.standardError.write(Data(io.stderr.utf8))
exit(status)
