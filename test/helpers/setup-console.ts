// oclif writes through console.log, which jest decorates; use a plain console.
import { Console } from 'node:console';

globalThis.console = new Console({ stdout: process.stdout, stderr: process.stderr });
