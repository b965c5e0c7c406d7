// Page object: one chat — composer, streamed answers (failed ones with their alert), superseded
// answers, tool cards with their status and approvals, followup questions and completion results, the tools summary chip and the Tools panel it
// opens (docked on wide screens, a bottom sheet on phones) with its connectors (collapsed to one
// line until expanded), switches, Radix policy selects and pending-change notice, stop, regenerate,
// turn details and the model picker.
import { expect, type Locator, type Page } from "@playwright/test";

import { ComposerPickers } from "./composer-pickers.ts";
import { escapeRegExp } from "./escape-regexp.ts";

/** The Tools panel's labels of a tool's policy choices ("" = the connector's default). */
const toolPolicyLabels = { "": "Default", allow: "Allow", ask: "Ask", deny: "Never" } as const;

export class ChatPage {
  readonly composer: Locator;
  readonly answers: Locator;
  /** Answers replaced by a restart (Apply now, Regenerate), collapsed. */
  readonly supersededAnswers: Locator;
  /** The "Pending: applies on the next request" notice of the Tools panel. */
  readonly pendingNotice: Locator;
  /** The composer row's model and persona pickers. */
  readonly pickers: ComposerPickers;

  constructor(private readonly page: Page) {
    this.pickers = new ComposerPickers(page);
    this.composer = page.getByLabel("Message", { exact: true });
    this.answers = page.getByTestId("assistant-turn");
    this.supersededAnswers = page.getByTestId("superseded-turn");
    this.pendingNotice = page.getByRole("status").filter({ hasText: "Pending: applies on the next request" });
  }

  /** Creates a chat with the home page's New chat, which opens it. */
  async openNewChat(): Promise<void> {
    await this.page.goto("/");
    const created = this.page.waitForResponse((r) => r.url().includes("/api/trpc/session.create") && r.ok());
    await this.page.getByRole("button", { name: "New chat", exact: true }).click();
    const body = (await (await created).json()) as { result: { data: { json: { id: string } } } }[];
    const id = body[0]!.result.data.json.id;
    await expect(this.page).toHaveURL(new RegExp(`/s/${id}$`));
    await expect(this.composer).toBeVisible();
  }

  /** The chip in the composer's row: "1 connector · 14 tools · revision 3"; it opens the Tools panel. */
  toolsSummary(): Locator {
    return this.page.getByTestId("tools-summary");
  }

  /** The open Tools panel (docked or in its sheet). */
  toolsPanel(): Locator {
    return this.page.getByRole("complementary", { name: "Connectors" });
  }

  /** Opens the Tools panel with the summary chip unless it is open already. */
  async openTools(): Promise<void> {
    if (await this.toolsPanel().isVisible()) return;
    await this.toolsSummary().click();
    await expect(this.toolsPanel()).toBeVisible();
  }

  /** A connector's disclosure in the Tools panel (its name, health and "n of m tools on"). */
  connectorToggle(name: string): Locator {
    return this.toolsPanel()
      .locator("button[aria-expanded]")
      .filter({ hasText: new RegExp(`^${escapeRegExp(name)} `) });
  }

  /** Expands a connector in the Tools panel, showing its policy, bulk switches and tools. */
  async expandConnector(name: string): Promise<void> {
    await this.openTools();
    const toggle = this.connectorToggle(name);
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
  }

  /** The Tools panel's switch for a connector. */
  connectorSwitch(name: string): Locator {
    return this.page.getByRole("switch", { name: `Use ${name} in this chat` });
  }

  toolsRevision(): Locator {
    return this.page.getByTestId("tools-revision");
  }

  async switchConnector(name: string, on: boolean): Promise<void> {
    await this.openTools();
    const toggle = this.connectorSwitch(name);
    await expect(toggle).toBeEnabled();
    if ((await toggle.isChecked()) !== on) await toggle.click(); // controlled: flips once the server saved it
    await expect(toggle).toBeChecked({ checked: on });
  }

  /** The Tools panel's policy select of one tool ("" = the connector's default). */
  toolPolicy(connector: string, tool: string): Locator {
    return this.page.getByRole("combobox", { name: `Policy for ${connector} ${tool}`, exact: true });
  }

  async setToolPolicy(connector: string, tool: string, policy: "" | "allow" | "ask" | "deny"): Promise<void> {
    await this.expandConnector(connector);
    const select = this.toolPolicy(connector, tool);
    await expect(select).toBeEnabled();
    await select.click();
    const label = toolPolicyLabels[policy];
    await this.page.getByRole("option", { name: label, exact: true }).click();
    await expect(select).toHaveText(label); // controlled: shows the new value once the server saved it
  }

  lastToolCard(): Locator {
    return this.lastAnswer().getByTestId("tool-call").last();
  }

  /** Approve / Deny on a tool call waiting for approval; `tool` is its canonical name (`server.tool`). */
  approveButton(tool: string): Locator {
    return this.page.getByRole("button", { name: `Approve ${tool}`, exact: true });
  }

  denyButton(tool: string): Locator {
    return this.page.getByRole("button", { name: `Deny ${tool}`, exact: true });
  }

  /** The Tools panel's checkbox of a built-in tool (`builtin.attempt_completion`). */
  builtinSwitch(name: string): Locator {
    return this.toolsPanel().getByRole("checkbox", { name: `Allow ${name}`, exact: true });
  }

  async switchBuiltin(name: string, on: boolean): Promise<void> {
    await this.openTools();
    const box = this.builtinSwitch(name);
    await expect(box).toBeEnabled();
    if ((await box.isChecked()) !== on) await box.click(); // controlled: flips once the server saved it
    await expect(box).toBeChecked({ checked: on });
  }

  /** The last followup question (builtin.ask_followup_question) of the last answer. */
  lastQuestion(): Locator {
    return this.lastAnswer().getByTestId("followup-question").last();
  }

  /** One of the suggested answers of the last question, as a button. */
  questionOption(option: string): Locator {
    return this.lastQuestion().getByRole("button", { name: option, exact: true });
  }

  /** Answers the last question in its own words (the free-text field, then Answer). */
  async answerQuestion(text: string): Promise<void> {
    await this.lastQuestion().getByRole("textbox", { name: "Your answer", exact: true }).fill(text);
    await this.lastQuestion().getByRole("button", { name: "Answer", exact: true }).click();
  }

  /** The final answer an attempt_completion call gave, rendered as Markdown. */
  completionResult(): Locator {
    return this.lastAnswer().getByTestId("completion-result");
  }

  /** The model's last written text in the last answer (tool cards excluded). */
  lastAnswerText(): Locator {
    return this.lastAnswer().getByTestId("markdown").last();
  }

  /** Picks a model in the composer's model picker by its value (`openai:gpt-5.1`). */
  async chooseModel(value: string): Promise<void> {
    await this.pickers.chooseModel(value);
  }

  async send(text: string): Promise<void> {
    await this.composer.fill(text);
    await this.composer.press("Enter");
    await expect(this.page.getByTestId("user-message").filter({ hasText: text }).last()).toBeVisible();
  }

  /** The pencil on the last user message, then the inline editor's Send. */
  async editLastMessage(text: string): Promise<void> {
    await this.page.getByRole("button", { name: "Edit message", exact: true }).click();
    const editor = this.page.getByRole("textbox", { name: "Edit message", exact: true });
    await editor.fill(text);
    await this.page.getByRole("button", { name: "Send edit", exact: true }).click();
    await expect(editor).toHaveCount(0);
    await expect(this.page.getByTestId("user-message").filter({ hasText: text }).last()).toBeVisible();
  }

  lastAnswer(): Locator {
    return this.answers.last();
  }

  async expectLastAnswerDone(): Promise<void> {
    await expect(this.lastAnswer()).toHaveAttribute("data-status", "completed");
  }

  /** The status of a tool card, in the words it shows ("done", "cancelled", …). */
  toolStatus(card: Locator): Locator {
    return card.getByTestId("tool-status");
  }

  /** The alert a failed answer shows. */
  answerError(answer: Locator = this.lastAnswer()): Locator {
    return answer.getByRole("alert");
  }

  async stop(): Promise<void> {
    await this.page.getByRole("button", { name: "Stop", exact: true }).click();
  }

  /** Regenerate, among the last answer's hover actions. */
  async regenerate(): Promise<void> {
    await this.lastAnswer().getByRole("button", { name: "Regenerate", exact: true }).click();
  }

  /** An answer's hover action ("Copy answer", "Regenerate"). */
  answerAction(name: "Copy answer" | "Regenerate", answer: Locator = this.lastAnswer()): Locator {
    return answer.getByRole("button", { name, exact: true });
  }

  /** A user message's hover action ("Copy message", "Edit message"), by the message's text. */
  messageAction(name: "Copy message" | "Edit message", text: string): Locator {
    return this.page
      .getByTestId("user-message")
      .filter({ hasText: text })
      .locator("..")
      .getByRole("button", { name, exact: true });
  }

  /** The one-line summary under an answer: "openai · gpt-5.1 · 1.2 s". */
  answerSummary(answer: Locator = this.lastAnswer()): Locator {
    return answer.getByTestId("turn-summary");
  }

  /** Opens an answer's Turn details drawer and returns it. */
  async openTurnDetails(answer: Locator = this.lastAnswer()): Promise<Locator> {
    await answer.getByRole("button", { name: "Details", exact: true }).click();
    const details = this.page.getByRole("dialog", { name: "Turn details" });
    await expect(details).toBeVisible();
    return details;
  }

  async closeTurnDetails(): Promise<void> {
    await this.page.keyboard.press("Escape");
    await expect(this.page.getByRole("dialog", { name: "Turn details" })).toHaveCount(0);
  }
}
