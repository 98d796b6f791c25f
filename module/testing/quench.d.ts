/**
 * The Quench module's hook, for the type checker (the batch is in quench-batches.mjs). Quench is
 * not a dependency: the hook only fires in worlds where it is active.
 */
import type { Quench } from "./quench-batches.mjs";

declare module "@league-of-foundry-developers/foundry-vtt-types/configuration" {
  namespace Hooks {
    interface HookConfig {
      quenchReady: (quench: Quench) => void;
    }
  }
}

export {};
