import { afterEach } from '@jest/globals';

afterEach(() => {
  process.exitCode = undefined;
});
