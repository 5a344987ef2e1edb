within;
package P
end P;
