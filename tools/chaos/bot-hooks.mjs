// Faults of the bot's own host, for chaos runs only: preloaded into the bot process by the harness
// (`node --import ./tools/chaos/bot-hooks.mjs bin/akira-mm.js run …`), never by the product.
//
// On SIGUSR2 the process reads the JSON file named by AKIRA_CHAOS_CONTROL:
//   { "clockOffsetMs": N }  the host's wall clock is stepped to real time + N ms (Date.now only:
//                           the monotonic clock, like CLOCK_MONOTONIC under an NTP step, is not);
//   { "diskFull": true }    every write or sync of a file opened under AKIRA_CHAOS_DISK_DIR fails
//                           with ENOSPC, as on a full disk (the journal lives there).
// Builtin ESM exports are re-synced, so `import { writeSync } from 'node:fs'` sees the change.
/* eslint-disable no-restricted-properties -- stepping the host's wall clock (Date.now) is this hook's job */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const controlFile = process.env.AKIRA_CHAOS_CONTROL;
const diskDir = process.env.AKIRA_CHAOS_DISK_DIR;
const realNow = Date.now.bind(Date);
let clockOffsetMs = 0;
let diskFull = false;
const diskFds = new Set();

Date.now = () => realNow() + clockOffsetMs;

function noSpace(syscall) {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), { errno: -28, code: 'ENOSPC', syscall });
}

if (diskDir !== undefined) {
  const original = { openSync: fs.openSync, writeSync: fs.writeSync, fsyncSync: fs.fsyncSync, fdatasync: fs.fdatasync, fdatasyncSync: fs.fdatasyncSync, writeFileSync: fs.writeFileSync };
  const onDisk = (path) => typeof path === 'string' && path.startsWith(diskDir);
  fs.openSync = (path, ...rest) => {
    const fd = original.openSync(path, ...rest);
    if (onDisk(path)) diskFds.add(fd);
    return fd;
  };
  fs.writeSync = (fd, ...rest) => {
    if (diskFull && diskFds.has(fd)) throw noSpace('write');
    return original.writeSync(fd, ...rest);
  };
  fs.fsyncSync = (fd) => {
    if (diskFull && diskFds.has(fd)) throw noSpace('fsync');
    return original.fsyncSync(fd);
  };
  fs.fdatasyncSync = (fd) => {
    if (diskFull && diskFds.has(fd)) throw noSpace('fdatasync');
    return original.fdatasyncSync(fd);
  };
  fs.fdatasync = (fd, callback) => {
    if (diskFull && diskFds.has(fd)) {
      process.nextTick(() => callback(noSpace('fdatasync')));
      return;
    }
    original.fdatasync(fd, callback);
  };
  fs.writeFileSync = (path, ...rest) => {
    if (diskFull && onDisk(path)) throw noSpace('write');
    return original.writeFileSync(path, ...rest);
  };
  syncBuiltinESMExports();
}

if (controlFile !== undefined) {
  process.on('SIGUSR2', () => {
    try {
      const control = JSON.parse(fs.readFileSync(controlFile, 'utf8'));
      if (typeof control.clockOffsetMs === 'number') clockOffsetMs = control.clockOffsetMs;
      if (typeof control.diskFull === 'boolean') diskFull = control.diskFull;
    } catch {
      // A half-written control file: the harness writes it again.
    }
  });
}
