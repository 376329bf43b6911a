/**
 * What the local emulator says to clients beyond the control plane's wire
 * (kept apart so that the emulator and the client share it without either
 * loading the other).
 */

/** The answer header in which the emulator says how much faster than real time its clock runs (waiters poll in its time). */
export const EMULATOR_TIME_SCALE = 'x-cdp-emulator-time-scale';
