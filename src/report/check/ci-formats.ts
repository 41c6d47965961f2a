// The `--format` values of `check` that CI systems read, beside text, json, csv and sarif.

/** `junit` (formatCheckJunit), `github` (formatCheckGithub), `markdown` (formatCheckMarkdown). */
export const CHECK_CI_FORMATS = ['junit', 'github', 'markdown'] as const;

export type CheckCiFormat = (typeof CHECK_CI_FORMATS)[number];
