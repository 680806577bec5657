/** The package version, bundled into the CLI from package.json (so `--version` needs no file at run time). */
import packageJson from '../../package.json';

export const VERSION: string = packageJson.version;
