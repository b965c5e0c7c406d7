// Personas as sub-agents in the browser (as Sage: a sub-agent is a tool in every chat of its owner).
// A persona marked "Available as a sub-agent" is consulted by the chat's model as the tool
// persona.<slug>: its card shows the sub-agent's steps, tokens and its own (collapsible) tool
// cards, and the answer's Turn details list the nested requests with their revision and exact tool
// names. An `ask` tool inside the sub-agent asks the user on the nested card. The fake provider
// answers in echo mode: `use tool <name> {args}` calls a tool, tool results come back as text.
import { PersonasPage } from "../pages/personas-page.ts";
import { SAGE } from "../support/config.ts";
import { expect, test } from "../support/fixtures.ts";
import { saveScreenshot } from "../support/screenshots.ts";

test.use({ account: SAGE });

/** A new sub-agent persona allowed everything's tools; its tool's canonical and exposed names. */
async function addScout(personas: PersonasPage) {
  const stamp = Date.now();
  await personas.addSubAgent({
    name: `Scout ${stamp}`,
    systemPrompt: "You are a scout: look things up with the tools and report back briefly.",
    allowlist: "everything.*",
  });
  return { canonical: `persona.scout_${stamp}`, exposed: `persona_scout_${stamp}` };
}

function consult(exposed: string, message: string): string {
  const task = `use tool everything_echo ${JSON.stringify({ message })}`;
  return `use tool ${exposed} ${JSON.stringify({ task })}`;
}

test("a sub-agent's card shows its steps and nested tool cards, and turn details its requests", async ({
  page,
  chat,
}) => {
  const scout = await addScout(new PersonasPage(page));
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await expect(page.getByTestId("sub-agent-tools")).toContainText(scout.canonical); // listed in the Tools panel
  await chat.send(consult(scout.exposed, "from the scout"));

  await chat.expectLastAnswerDone();
  const answer = chat.lastAnswer();
  const sub = PersonasPage.subAgent(answer);
  await expect(sub).toHaveAttribute("data-status", "completed", { timeout: 15_000 });
  await expect(sub.getByTestId("sub-agent-steps")).toHaveText("2 steps");
  await expect(sub.getByTestId("sub-agent-tokens")).toContainText("tokens");
  await expect(sub.getByTestId("sub-agent-step")).toHaveCount(2);
  const nested = PersonasPage.nestedToolCards(answer);
  await expect(nested).toHaveCount(1);
  await expect(nested).toContainText("everything.echo");
  await expect(nested).toHaveAttribute("data-status", "done");
  await nested.locator("summary").click(); // collapsible: its result shows once opened
  await expect(nested.getByTestId("tool-result")).toContainText("from the scout");
  await expect(PersonasPage.personaCall(answer, scout.canonical)).toHaveAttribute("data-status", "done");
  await expect(chat.lastAnswerText()).toContainText(`Tool ${scout.exposed} returned:`);
  await expect(chat.lastAnswerText()).toContainText("from the scout");
  await saveScreenshot(page, "sub-agent");

  const details = await chat.openTurnDetails(answer);
  const nestedRequests = details.getByTestId("sub-agent-details");
  await expect(nestedRequests).toContainText("Sub-agent Scout");
  await expect(nestedRequests.getByTestId("sub-agent-request")).toHaveCount(2);
  const toolNames = nestedRequests.getByTestId("request-tool-names").first();
  await expect(toolNames).toContainText("everything_echo");
  await expect(toolNames).not.toContainText("persona_"); // a sub-agent never consults another
  await expect(toolNames).not.toContainText("builtin_"); // outside its allowlist
  const revision = await details.getByTestId("request-revision").first().textContent();
  await expect(nestedRequests.getByTestId("request-revision").first()).toHaveText(revision ?? "");
  await chat.closeTurnDetails();
});

test("an ask tool inside a sub-agent asks the user on the nested card", async ({ page, chat }) => {
  const scout = await addScout(new PersonasPage(page));
  await chat.openNewChat();
  await chat.switchConnector("everything", true);
  await chat.setToolPolicy("everything", "echo", "ask");
  await chat.send(consult(scout.exposed, "approved inside"));

  const answer = chat.lastAnswer();
  const nested = PersonasPage.nestedToolCards(answer);
  await expect(nested).toHaveAttribute("data-status", "waiting", { timeout: 15_000 });
  await expect(PersonasPage.subAgent(answer).getByRole("button", { name: "Approve everything.echo" })).toBeVisible();
  await chat.approveButton("everything.echo").click();

  await expect(nested).toContainText("approved");
  await chat.expectLastAnswerDone();
  await expect(PersonasPage.subAgent(answer)).toHaveAttribute("data-status", "completed");
  await expect(chat.lastAnswerText()).toContainText("approved inside");
});
