import { expect, type Locator, type Page } from '@playwright/test';

/**
 * 'Staff roster' in an organization's region of Manage Organization: the upload, the dry run's
 * sentences, table and problems, Apply and Cancel, and the imported staff with their status.
 */
export class RosterSection {
  readonly region: Locator;
  readonly heading: Locator;
  readonly uploadButton: Locator;
  /** The dry run's staff, with what the import does to each. */
  readonly dryRunTable: Locator;
  readonly problems: Locator;
  /** 'The file has N problems. Nothing will change until …' */
  readonly problemsMessage: Locator;
  readonly applyButton: Locator;
  readonly cancelButton: Locator;
  readonly appliedMessage: Locator;
  readonly errorMessage: Locator;
  /** The imported staff (GET …/roster). */
  readonly staffTable: Locator;
  readonly noStaff: Locator;

  constructor(
    readonly page: Page,
    organizationName: string,
  ) {
    this.region = page.getByRole('region', { name: organizationName });
    this.heading = this.region.getByRole('heading', { name: 'Staff roster' });
    this.uploadButton = this.region.getByRole('button', { name: 'Upload OneRoster file' });
    this.dryRunTable = this.region.getByRole('table', { name: 'Roster dry run' });
    this.problems = this.region.getByRole('list', { name: 'Problems in the file' });
    this.problemsMessage = this.region.getByRole('alert').filter({ hasText: 'Nothing will change until the file is fixed' });
    this.applyButton = this.region.getByRole('button', { name: 'Apply roster' });
    this.cancelButton = this.region.getByRole('button', { name: 'Cancel', exact: true });
    this.appliedMessage = this.region.getByRole('status').filter({ hasText: /^Roster applied:/ });
    this.errorMessage = this.region.getByRole('alert');
    this.staffTable = this.region.getByRole('table', { name: 'Roster staff' });
    this.noStaff = this.region.getByText('No staff imported yet.');
  }

  /** The dry run's 'N to add, …' sentence. */
  summary(text: string): Locator {
    return this.region.getByText(text, { exact: true });
  }

  /** A row of the dry run, by email. */
  dryRunRow(email: string): Locator {
    return this.dryRunTable.getByRole('row').filter({ hasText: email });
  }

  /** A row of the imported staff, by email. */
  staffRow(email: string): Locator {
    return this.staffTable.getByRole('row').filter({ hasText: email });
  }

  /** Pick a zip through 'Upload OneRoster file' (the browser's file chooser), which starts the dry run. */
  async upload(name: string, zip: Uint8Array) {
    await expect(this.uploadButton).toBeEnabled();
    const chooser = this.page.waitForEvent('filechooser');
    await this.uploadButton.click();
    await (await chooser).setFiles({ name, mimeType: 'application/zip', buffer: Buffer.from(zip) });
  }
}
