// `linkladder help [command]`. Commander's built-in one answers an unknown name
// by dumping the program's help; this one says "unknown command" in one line.

import type { Command } from 'commander';

export function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .summary('print help for a command')
    .description('Print the help of a command, or of linkladder itself.')
    .argument('[command]', 'the command')
    .action((name: string | undefined) => {
      if (name === undefined) program.help();
      const command = program.commands.find((candidate) => candidate.name() === name);
      if (command === undefined) {
        program.error(`error: unknown command '${name}'`, { code: 'commander.unknownCommand' });
      }
      command.help();
    });
}
