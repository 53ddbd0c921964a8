import { describe, expect, expectTypeOf, test } from "vitest";
import { isOz0Error } from "../../src/errors/index.js";
import {
  HOOK_NAMES,
  HOOK_POINTS,
  type HookName,
  hookPoint,
  isHookName,
  LIFECYCLE_HOOKS,
  type ModifyingHookName,
} from "../../src/hooks/index.js";

// The specification's "Hook Reference" table, copied as it is written.
const SPEC_TABLE = `
pre_execution Yes Yes Execution
post_execution No No Execution
pre_llm_call Yes Yes LLM
post_llm_call No Yes LLM
pre_tool_call Yes Yes Tool
post_tool_call No Yes Tool
collect_tools No No Tool
execute_tool No No Tool
pre_prompt_build Yes Yes Prompt
post_prompt_build No Yes Prompt
pre_memory_store Yes Yes Memory
post_memory_store No No Memory
pre_agent_communication Yes Yes Communication
post_agent_communication No No Communication
pre_sensor_event Yes Yes Sensor
post_sensor_event No No Sensor
pre_session_access Yes Yes Session
post_session_access No No Session
on_pre_checkpoint Yes No Execution
on_post_checkpoint No No Execution
on_pre_restore Yes No Execution
on_post_restore No No Execution
pre_agent_handoff Yes Yes Communication
post_agent_handoff No No Communication
pre_context_assembly No Yes Context
post_context_assembly No No Context
collect_context No No Context
on_error No No Error
user_input Yes Yes I/O
user_output Yes Yes I/O
object_model_event No No KG
skills_check No No Skills
`;

const specRows = SPEC_TABLE.trim()
  .split("\n")
  .map((line) => {
    const [name, blocking, modifying, category] = line.split(" ");
    return { name, blocking: blocking === "Yes", modifying: modifying === "Yes", category };
  });

describe("the hook catalogue", () => {
  test("has exactly 35 hooks, each name once", () => {
    expect(HOOK_POINTS).toHaveLength(35);
    expect(new Set(HOOK_NAMES).size).toBe(35);
  });

  test("holds every row of the spec's Hook Reference with its exact blocking, modification and category", () => {
    expect(specRows).toHaveLength(32);
    for (const row of specRows) {
      const { name, blocking, modifying, category } = hookPoint(row.name!);
      expect({ name, blocking, modifying, category }).toEqual(row);
    }
    expect(HOOK_POINTS.filter((info) => info.origin === "spec").map((info) => info.name)).toEqual(
      specRows.map((row) => row.name),
    );
  });

  test("adds pre_approval, pre_child_job and on_kill_switch as oz0's own points", () => {
    const added = HOOK_POINTS.filter((info) => info.origin === "oz0");
    expect(
      added.map(({ name, blocking, modifying, category }) => ({ name, blocking, modifying, category })),
    ).toEqual([
      { name: "pre_approval", blocking: true, modifying: true, category: "Governance" },
      { name: "pre_child_job", blocking: true, modifying: true, category: "Execution" },
      { name: "on_kill_switch", blocking: false, modifying: false, category: "Governance" },
    ]);
  });

  test("describes every hook in one line", () => {
    for (const info of HOOK_POINTS) {
      expect(info.description.length, info.name).toBeGreaterThan(20);
      expect(info.description, info.name).not.toContain("\n");
    }
  });

  test("is frozen data nobody can change at run time", () => {
    expect(Object.isFrozen(HOOK_POINTS)).toBe(true);
    expect(Object.isFrozen(HOOK_POINTS[0])).toBe(true);
    expect(() => {
      (HOOK_POINTS[0] as { blocking: boolean }).blocking = false;
    }).toThrow(TypeError);
  });

  test("types the modifying hooks from the same rows", () => {
    expectTypeOf<"pre_tool_call">().toExtend<ModifyingHookName>();
    expectTypeOf<"post_execution">().not.toExtend<ModifyingHookName>();
    expectTypeOf<"on_kill_switch">().toExtend<HookName>();
  });
});

describe("hookPoint", () => {
  test("rejects an unknown hook with UNKNOWN_HOOK and suggests the closest name", () => {
    try {
      hookPoint("pre_tool_cal");
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "UNKNOWN_HOOK")).toBe(true);
      expect((error as Error).message).toContain("Did you mean 'pre_tool_call'?");
      expect((error as { data: unknown }).data).toEqual({
        hook: "pre_tool_cal",
        suggestion: "pre_tool_call",
      });
    }
  });

  test("suggests nothing for a name close to no hook", () => {
    try {
      hookPoint("completely_different");
      expect.unreachable();
    } catch (error) {
      expect(isOz0Error(error, "UNKNOWN_HOOK")).toBe(true);
      expect((error as Error).message).not.toContain("Did you mean");
      expect((error as { data: unknown }).data).toEqual({ hook: "completely_different" });
    }
  });

  test("isHookName tells catalogue names from others", () => {
    expect(isHookName("on_error")).toBe(true);
    expect(isHookName("on_on_error")).toBe(false);
  });
});

test("maps the host's lifecycle specs onto catalogue hooks", () => {
  expect(LIFECYCLE_HOOKS).toEqual({
    before_run: "pre_execution",
    before_tool_call: "pre_tool_call",
    after_tool_result: "post_tool_call",
  });
  for (const hook of Object.values(LIFECYCLE_HOOKS)) expect(isHookName(hook)).toBe(true);
});
