import Foundation

// The entry point: parse, run off the main actor (RentalTwinCommand.main is @concurrent),
// print, exit with the contract's status.
let outcome = await RentalTwinCommand.main(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(outcome.standardOutput.utf8))
FileHandle.standardError.write(Data(outcome.standardError.utf8))
exit(outcome.exitCode.rawValue)
