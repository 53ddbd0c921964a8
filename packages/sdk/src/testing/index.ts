// What plugin authors import in their tests (the `@oz0/sdk/testing` subpath).
export {
  callFunction,
  loadPluginForTest,
  runHook,
  TEST_PLUGIN_ID,
  testCall,
  testToolContext,
} from "./helpers.js";
