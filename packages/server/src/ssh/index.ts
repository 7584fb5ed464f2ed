export { startSshServer, type SshServerOptions, type RunningSshServer } from './server.js';
export { parseGitCommand, splitCommandLine, sshErrorMessage, SshCommandError, type GitCommand } from './command.js';
