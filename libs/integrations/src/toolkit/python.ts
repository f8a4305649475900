// Python's str(), repr(), str.title() and friends, as Zulip's integrations format text: @confab/zulip holds them.
export { PUNCTUATION, endsWithPunctuation, pyCapitalize, pyRepr, pyStr, pyStrRepr, pyTitle } from '@confab/zulip';
