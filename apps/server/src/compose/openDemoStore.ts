/**
 * The demo's data store, `<dataDir>/demo` (another battle than the opening one: `<dataDir>/demo-<script
 * name>`, so each battle keeps its own game), with the demo's roster and table profile written into it.
 * The demo must always start: when another demo holds that directory, this one keeps its game apart in
 * `<dataDir>/demo-<pid>` and `note` says so.
 */
import { basename, join } from 'node:path';
import { DataDirLockedError } from '../persist/dataLock.ts';
import { openDataStore, type DataStore } from '../persist/dataStore.ts';
import type { Demo } from './loadDemo.ts';
import { DEFAULT_DEMO_SCRIPT } from './liveOptions.ts';

/** `demo` for the opening battle, `demo-<name>` for `<name>.demo.json`. */
export function demoStoreName(scriptPath: string): string {
  return scriptPath === DEFAULT_DEMO_SCRIPT ? 'demo' : `demo-${basename(scriptPath).replace(/(\.demo)?\.json$/, '')}`;
}

export interface DemoStore {
  readonly store: DataStore;
  /** Appended to the source description ('' normally). */
  readonly note: string;
}

export function openDemoStore(dataDir: string, demo: Demo): DemoStore {
  let store: DataStore;
  let note = '';
  try {
    store = openDataStore(join(dataDir, demoStoreName(demo.scriptPath)));
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    // Another demo runs on this data directory: run this one on its own (the demo must always start).
    store = openDataStore(join(dataDir, `${demoStoreName(demo.scriptPath)}-${process.pid}`));
    note = ` (${join(dataDir, demoStoreName(demo.scriptPath))} is used by pid ${err.pid}; this demo keeps its game apart)`;
  }
  const { script, roster } = demo;
  store.write('roster', roster);
  store.write('table-profile', { name: script.name, widthIn: script.table.widthIn, depthIn: script.table.depthIn, anchors: script.anchors });
  return { store, note };
}
