export { startSshServer, type SshServerOptions, type RunningSshServer } from './server.js';
export { answerLfsAuthenticate, parseGitCommand, parseLfsAuthenticateCommand, splitCommandLine, sshErrorMessage, SshCommandError, type GitCommand, type LfsAuthenticateCommand } from './command.js';
