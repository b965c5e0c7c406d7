// Page object: the metrics page (/metrics-view) with its filters, charts and tables.
import { expect, type Locator, type Page } from "@playwright/test";

export class MetricsPage {
  readonly toolTable: Locator;
  readonly modelTable: Locator;

  constructor(private readonly page: Page) {
    this.toolTable = page.getByTestId("tool-table");
    this.modelTable = page.getByTestId("model-table");
  }

  async open(): Promise<void> {
    await this.page.goto("/metrics-view");
    await expect(this.page.getByRole("heading", { name: "Metrics" })).toBeVisible();
    await expect(this.toolTable).toBeVisible();
  }

  /** One of the filters (Period, Model, Connector, Tool, Chat), by its label. */
  filter(label: string): Locator {
    return this.page.getByRole("group", { name: "Filters" }).getByRole("combobox", { name: label, exact: true });
  }

  async filterBy(label: string, value: string): Promise<void> {
    await this.filter(label).selectOption(value);
  }

  /** A chart's figure: "chart-latency", "chart-success" or "chart-tokens". */
  chart(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  /** The bars a bar chart draws (one per tool in the success chart). */
  bars(testId: string): Locator {
    return this.chart(testId).locator(".recharts-bar-rectangle");
  }

  toolRows(): Locator {
    return this.toolTable.locator("tbody tr");
  }

  toolNames(): Promise<string[]> {
    return this.toolTable.locator("tbody tr td:first-child").allTextContents();
  }
}
