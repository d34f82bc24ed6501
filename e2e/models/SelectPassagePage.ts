import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';

/** SPEC §5 "Passage number (select page)": the messages, verbatim. */
export const PASSAGE_NUMBER_MESSAGES = {
  empty: 'Please enter a passage number',
  notANumber: 'Please enter a valid number',
  outOfRange: (max: number) => `Please enter a number between 1 and ${max}`,
};

/** The select-passage page (SPEC §2), /listen/{slug}/{version}/{editionSlug}. */
export class SelectPassagePage {
  readonly shell: AppShell;
  readonly passageInput: Locator;
  readonly startButton: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.passageInput = page.getByRole('textbox', { name: 'Enter passage number' });
    this.startButton = page.getByRole('button', { name: 'Start Listening' });
  }

  async goto(slug: string, version: string, editionSlug: string) {
    await this.page.goto(`/listen/${slug}/${version}/${editionSlug}`);
    await expect(this.passageInput).toBeVisible();
  }

  heading(title: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: title });
  }

  cover(title: string): Locator {
    return this.page.getByRole('img', { name: `Cover of ${title}` });
  }

  /** A validation message under the input. */
  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }

  /** Any of the three validation messages. */
  anyMessage(): Locator {
    return this.page.getByText(/^Please enter (a passage number|a valid number|a number between 1 and \d+)$/);
  }

  async type(text: string) {
    await this.passageInput.fill(text);
  }
}
