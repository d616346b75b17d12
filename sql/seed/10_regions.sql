-- Regions ebsize can name: the 7 regions priced in ebs-facts.md T6.
-- location = Price List `location` attribute, usagetype_prefix = Price List
-- usage-type prefix, both from ebs-facts.md T9 ('' = us-east-1, no prefix).
-- cn-northwest-1 is left out: ebs-facts.md gives no location string for it.
INSERT INTO regions (code, location, usagetype_prefix, currency, source) VALUES
	('us-east-1',      'US East (N. Virginia)',     '',     'USD', 'ebs-facts.md T9 [B2 B3 P1 P3]'),
	('us-west-2',      'US West (Oregon)',          'USW2', 'USD', 'ebs-facts.md T9 [B2 P1]'),
	('eu-west-1',      'EU (Ireland)',              'EU',   'USD', 'ebs-facts.md T9 [B2 B3 P1 P6]'),
	('eu-central-1',   'EU (Frankfurt)',            'EUC1', 'USD', 'ebs-facts.md T9 [B2 B4 P1]'),
	('ap-northeast-1', 'Asia Pacific (Tokyo)',      'APN1', 'USD', 'ebs-facts.md T9 [B2 P1]'),
	('ap-northeast-2', 'Asia Pacific (Seoul)',      'APN2', 'USD', 'ebs-facts.md T9 [B2 P1]'),
	('ap-southeast-1', 'Asia Pacific (Singapore)',  'APS1', 'USD', 'ebs-facts.md T9 [B2 P1]');
